// The kinds of file the resources bucket holds, by extension: the one list the upload page, the
// members' page and the download function read. The database's name rule
// (public.resource_path_tier) and the bucket's allowed types hold the same extensions and
// content types; supabase/tests/resource-types.test.ts keeps them equal.

export type ResourceKind = 'document' | 'audio' | 'video' | 'captions';

export type ResourceType = {
  /** The content type stored with the object, whatever the browser guessed. */
  contentType: string;
  kind: ResourceKind;
  /** The kind of file in a word or two, for people ("MP3 audio"). */
  label: string;
};

export const RESOURCE_TYPES = {
  pdf: { contentType: 'application/pdf', kind: 'document', label: 'PDF' },
  epub: { contentType: 'application/epub+zip', kind: 'document', label: 'EPUB eBook' },
  mobi: { contentType: 'application/x-mobipocket-ebook', kind: 'document', label: 'MOBI eBook' },
  mp3: { contentType: 'audio/mpeg', kind: 'audio', label: 'MP3 audio' },
  m4a: { contentType: 'audio/mp4', kind: 'audio', label: 'M4A audio' },
  mp4: { contentType: 'video/mp4', kind: 'video', label: 'MP4 video' },
  vtt: { contentType: 'text/vtt', kind: 'captions', label: 'Captions' },
} as const satisfies Record<string, ResourceType>;

export type ResourceExtension = keyof typeof RESOURCE_TYPES;

/** "Talk.MP3" -> "mp3"; null for a name with no extension the bucket takes. */
export function resourceExtension(name: string): ResourceExtension | null {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return Object.hasOwn(RESOURCE_TYPES, extension) ? (extension as ResourceExtension) : null;
}

/** What a file is, from its name; null when the bucket does not take it. */
export function resourceType(name: string): ResourceType | null {
  const extension = resourceExtension(name);
  return extension ? RESOURCE_TYPES[extension] : null;
}

/** Audio and video play in the member's page; captions are fetched for the video they go with. */
export function isPlayable(name: string): boolean {
  const kind = resourceType(name)?.kind;
  return kind === 'audio' || kind === 'video';
}

/** The captions file that goes with a video: the same name with `.vtt` ("a/talk.mp4" -> "a/talk.vtt"). */
export function captionsName(videoName: string): string {
  const dot = videoName.lastIndexOf('.');
  return `${dot > 0 ? videoName.slice(0, dot) : videoName}.vtt`;
}
