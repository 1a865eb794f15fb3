import { embeddedSrc } from './index';

describe('embedded page source', () => {
  it('embeds only http(s) pages and appends the session token under the given name when asked', () => {
    expect(embeddedSrc('?src=https://report.example.com/a?x=1', 'tok')).toBe('https://report.example.com/a?x=1');
    expect(embeddedSrc('?src=https://report.example.com/a&authentication=true&key=access_token', 'tok')).toBe('https://report.example.com/a?access_token=tok');
    expect(embeddedSrc('?src=https://r.example.com/&authentication=1', 'tok')).toBe('https://r.example.com/?token=tok');
    expect(embeddedSrc('?src=https://r.example.com/&authentication=false&key=t', 'tok')).toBe('https://r.example.com/');
    for (const bad of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', ' JaVaScRiPt:alert(1)']) {
      expect(embeddedSrc(`?src=${encodeURIComponent(bad)}`, 'tok')).toBeNull();
    }
  });
});
