import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReadState } from '@/lib/read-state';
import { DownloadsOverviewView, flagReasons, MemberDownloadsView, MemberPlacesView } from './downloads-view';

const limits = { perDay: 30, addresses: 5 };
const ready = <T,>(data: T): ReadState<T> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

describe('flagReasons', () => {
  it('names each limit passed, with the figure and the limit', () => {
    expect(flagReasons({ downloads: 31, addresses: 2 }, limits)).toBe('31 downloads (limit 30)');
    expect(flagReasons({ downloads: 3, addresses: 6 }, limits)).toBe('6 addresses (limit 5)');
    expect(flagReasons({ downloads: 40, addresses: 9 }, limits)).toBe('40 downloads (limit 30), 9 addresses (limit 5)');
  });
});

describe('DownloadsOverviewView', () => {
  it('lists flagged members with why, and the downloads per file', () => {
    render(
      <DownloadsOverviewView
        limits={limits}
        flags={ready([
          { userId: 'u1', email: 'sharer@example.com', downloads: 42, addresses: 7, lastAt: '2026-11-26T10:00:00Z' },
        ])}
        totals={ready([
          { fileName: 'ebook/ebook/yes-you-can.pdf', downloads: 12, members: 4, lastAt: '2026-11-26T10:00:00Z' },
        ])}
      />,
    );
    const section = screen.getByRole('region', { name: 'Downloads' });
    expect(within(section).getByText('sharer@example.com')).toBeInTheDocument();
    expect(within(section).getByText(/42 downloads \(limit 30\), 7 addresses \(limit 5\)/)).toBeInTheDocument();
    const totals = screen.getByRole('list', { name: 'Downloads per file' });
    expect(within(totals).getByRole('listitem')).toHaveTextContent(
      /^ebook\/ebook\/yes-you-can\.pdf12 downloads by 4 members · latest/,
    );
  });

  it('says when nobody is flagged and nothing was downloaded', () => {
    render(<DownloadsOverviewView limits={limits} flags={ready([])} totals={ready([])} />);
    expect(screen.getByText('Nobody is past a limit.')).toBeInTheDocument();
    expect(screen.getByText('No downloads yet.')).toBeInTheDocument();
  });

  it('shows a failed read with its reason and a retry', async () => {
    let retried = 0;
    render(
      <DownloadsOverviewView
        limits={limits}
        flags={{ status: 'error', error: new Error('only staff'), retrying: false, retry: () => void retried++ }}
        totals={{ status: 'loading', retrying: false }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load the sharing flags.");
    expect(alert).toHaveTextContent('only staff');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retried).toBe(1);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the download totals...');
  });
});

describe('MemberDownloadsView', () => {
  it('lists the file, when and the address of each download', () => {
    render(
      <MemberDownloadsView
        email="reader@example.com"
        downloads={ready([
          { id: 3, fileName: 'foundation/scripture-audio/s1.mp3', at: '2026-11-27T10:00:00Z', ip: null, played: true },
          {
            id: 2,
            fileName: 'ebook/ebook/yes-you-can.pdf',
            at: '2026-11-26T10:00:00Z',
            ip: '203.0.113.9',
            played: false,
          },
          { id: 1, fileName: 'ebook/ebook/yes-you-can.epub', at: '2026-11-25T10:00:00Z', ip: null, played: false },
        ])}
      />,
    );
    const table = screen.getByRole('table', { name: 'Files this member downloaded' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'foundation/scripture-audio/s1.mp3',
      'ebook/ebook/yes-you-can.pdf',
      'ebook/ebook/yes-you-can.epub',
    ]);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Played',
      'Downloaded',
      'Downloaded',
    ]);
    expect(within(rows[1]!).getByText('203.0.113.9')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Unknown')).toBeInTheDocument();
  });
});

describe('MemberPlacesView', () => {
  it('shows how far the member got in each file, and what they finished', () => {
    render(
      <MemberPlacesView
        email="reader@example.com"
        places={ready([
          { fileName: 'foundation/scripture-audio/s2.mp3', percent: 40, finished: false, at: '2026-11-27T10:00:00Z' },
          { fileName: 'foundation/scripture-audio/s1.mp3', percent: 12, finished: true, at: '2026-11-26T10:00:00Z' },
        ])}
      />,
    );
    const table = screen.getByRole('table', { name: 'How far this member got in each file' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['40 %', 'Finished (at 12 %)']);
  });

  it('says when nothing was played', () => {
    render(<MemberPlacesView email="reader@example.com" places={ready([])} />);
    expect(screen.getByText('Nothing played yet.')).toBeInTheDocument();
  });
});
