import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['imageView']), 60_000);

describe('imageView', () => {
  it('shows the sample image by default, with its fit, radius and opacity', () => {
    const { container } = renderKind('imageView', { fitType: 'contain', borderRadius: 12, opacity: 0.5 });
    const root = container.querySelector('[data-widget="imageView"]') as HTMLElement;
    const img = root.querySelector('img')!;
    expect(img.getAttribute('src')).toBeTruthy();
    expect(img.getAttribute('src')).not.toContain('builtin:');
    expect(img.style.objectFit).toBe('contain');
    expect(root.style.borderRadius).toBe('12px');
    expect(root.style.opacity).toBe('0.5');
  });

  it('loads library / same-origin paths and http(s) addresses', () => {
    for (const [url, src] of [['/files/image/a.png', '/files/image/a.png'], ['https://cdn.example.cn/a.png', 'https://cdn.example.cn/a.png']]) {
      const { container, unmount } = renderKind('imageView', { url });
      expect(container.querySelector('img')!.getAttribute('src')).toBe(src);
      unmount();
    }
  });

  it('refuses any other address with a Chinese notice and no image', () => {
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '//evil.example/a.png', 'a.png', 'builtin:carousel/none.svg', '']) {
      const { container, unmount } = renderKind('imageView', { url });
      expect(container.querySelector('img'), url).toBeNull();
      expect(screen.getByRole('note')).toHaveTextContent(/图片/);
      unmount();
    }
  });
});
