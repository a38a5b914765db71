import { NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

const links = [
  { to: paths.staff, label: 'Dashboard' },
  { to: paths.staffCatalog, label: 'Catalog' },
  { to: paths.staffMembers, label: 'Members' },
  { to: paths.staffSessions, label: 'Sessions' },
  { to: paths.adminUpload, label: 'Upload Resources' },
  { to: paths.home, label: 'Home' },
] as const;

/** The staff pages' navigation; the current page is marked (aria-current) and not underlined. */
export function StaffNav() {
  return (
    <nav aria-label="Staff pages" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {links.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end
          className={({ isActive }) =>
            cn('text-navy-800 underline-offset-2', isActive ? 'font-semibold no-underline' : 'underline')
          }
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}
