import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['videoView']), 60_000);

describe('videoView', () => {
  it('plays an http(s) or same-origin mp4/webm, autoplay always muted', () => {
    const { container, unmount } = renderKind('videoView', { url: 'https://cdn.example.cn/v/a.mp4', autoplay: true, muted: false, loop: true, fitType: 'contain' });
    const video = container.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('https://cdn.example.cn/v/a.mp4');
    expect(video.autoplay).toBe(true);
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.style.objectFit).toBe('contain');
    unmount();
    expect(renderKind('videoView', { url: '/files/v/b.webm' }).container.querySelector('video')!.getAttribute('src')).toBe('/files/v/b.webm');
  });

  it('refuses any other address or format with a Chinese notice and no video', () => {
    for (const url of ['javascript:alert(1)//a.mp4', 'data:video/mp4;base64,AA', '//evil.example/a.mp4', 'https://example.cn/a.avi', 'a.mp4', '']) {
      const { container, unmount } = renderKind('videoView', { url });
      expect(container.querySelector('video'), url).toBeNull();
      expect(screen.getByRole('note')).toHaveTextContent(/视频/);
      unmount();
    }
  });
});

describe('videoView sample', () => {
  it('a new video widget plays the shipped sample, a small WebM', () => {
    const { container } = renderKind('videoView');
    const src = container.querySelector('video')!.getAttribute('src')!;
    expect(src).toMatch(/sample\.webm$/);
    const file = readFileSync(path.join(import.meta.dirname, 'assets', 'sample.webm'));
    expect(file.length).toBeLessThan(300 * 1024);
    // EBML header: a Matroska/WebM file
    expect(file.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
  });

  it('refuses a builtin name that does not ship', () => {
    const { container } = renderKind('videoView', { url: 'builtin:videoView/none.webm' });
    expect(container.querySelector('video')).toBeNull();
    expect(screen.getByRole('note')).toHaveTextContent('找不到该示例视频');
  });
});
