// The sample video ships with the widget (a 6-second loop drawn by ffmpeg from its own test sources: an animated
// gradient, a grid and the testsrc2 pattern; VP9 in WebM, about 85 KB); a new video widget plays it until a real
// address is set. Declarations name it `builtin:videoView/<file>`, so they stay plain JSON and the bundler still
// fingerprints the file.
const files = import.meta.glob('./assets/*.webm', { eager: true, query: '?url', import: 'default' }) as Record<string, string>;

export const BUILTIN_VIDEO_PREFIX = 'builtin:videoView/';

/** The bundled file's address for `builtin:videoView/<file>`, or undefined if no such file ships. */
export function builtinVideoUrl(url: string): string | undefined {
  return url.startsWith(BUILTIN_VIDEO_PREFIX) ? files[`./assets/${url.slice(BUILTIN_VIDEO_PREFIX.length)}`] : undefined;
}
