import { FullPageSpinner } from '@/components/ui/spinner';
import { useSessionRevalidation } from '@/lib/use-session-revalidation';
import { useIsStaff } from '../api/is-staff';
import { useUploadResource } from '../api/upload-resource';
import { StaffCheckFailedView, StaffOnlyView, UploadResourcesView } from './admin-upload-view';

/**
 * The PDF check (and its inflate) and the media check load with the first such file staff send,
 * not with the page. Each check is a courtesy (the download function refuses what it cannot stamp, decision 095): if its
 * code cannot be loaded (a stale chunk after a deploy), the upload goes ahead rather than stop.
 */
async function checkFile(file: File): Promise<string | null> {
  if (/\.pdf$/i.test(file.name)) {
    const check = await import('../lib/pdf-check').catch(() => null);
    return check ? check.pdfProblemAdvice(file) : null;
  }
  // Audio, video and captions: one that would not play on members' phones is refused before
  // any byte is sent (an MP4 with its index at the end, or not H.264 and AAC).
  const media = await import('../lib/media-check').catch(() => null);
  const answer = media ? await media.checkMediaFile(file) : null;
  return answer && !answer.ok ? answer.message : null;
}

/**
 * Container for /admin-upload, for the session the route loader found (null: a visitor).
 * Staff get the form; everyone else a clear "staff only" page; a check that failed says so
 * and offers a retry (never "staff only"). The database refuses non-staff either way.
 */
export function AdminUploadScreen({ userId }: { userId: string | null }) {
  const sessionUserId = useSessionRevalidation(userId);
  if (!sessionUserId) return <StaffOnlyView signedIn={false} />;
  return <StaffGate userId={sessionUserId} />;
}

function StaffGate({ userId }: { userId: string }) {
  const staff = useIsStaff(userId);
  const upload = useUploadResource();
  if (staff.status === 'loading')
    return <FullPageSpinner label={staff.retrying ? 'Still checking access...' : 'Checking access...'} />;
  if (staff.status === 'error') return <StaffCheckFailedView retry={staff.retry} retrying={staff.retrying} />;
  if (!staff.data) return <StaffOnlyView signedIn />;
  return (
    <UploadResourcesView
      onUpload={async (card, file, onProgress, signal) => {
        await upload.mutateAsync({ card, file, onProgress, signal });
      }}
      checkFile={checkFile}
    />
  );
}
