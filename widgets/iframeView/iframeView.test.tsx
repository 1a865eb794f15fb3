import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['iframeView']), 60_000);

describe('iframeView', () => {
  it('loads an http(s) page in a sandboxed frame with no referrer', () => {
    const { container } = renderKind('iframeView', { url: 'https://intra.example.cn/board' });
    const frame = container.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe('https://intra.example.cn/board');
    expect(frame.getAttribute('sandbox')!.split(' ').sort()).toEqual(['allow-forms', 'allow-same-origin', 'allow-scripts']);
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('never gives a page of this app both scripts and its origin', () => {
    const { container } = renderKind('iframeView', { url: `${window.location.origin}/x` });
    expect(container.querySelector('iframe')!.getAttribute('sandbox')).not.toContain('allow-same-origin');
  });

  it('refuses any other address with a Chinese notice and no frame', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', '/relative', '']) {
      const { container, unmount } = renderKind('iframeView', { url });
      expect(container.querySelector('iframe'), url).toBeNull();
      expect(screen.getByRole('note')).toHaveTextContent(/网页地址|http/);
      unmount();
    }
  });
});
