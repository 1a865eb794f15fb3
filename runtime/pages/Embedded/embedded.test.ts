import { embeddedSrc, hasSrc } from './index';

describe('embedded page source', () => {
  const here = window.location.origin;
  it('embeds only http(s) pages and appends the session token under the given name when asked, on a trusted site', () => {
    const trusted = ['https://report.example.com', 'https://r.example.com'];
    expect(embeddedSrc('?src=https://report.example.com/a?x=1', 'tok', trusted)).toEqual({ src: 'https://report.example.com/a?x=1', withheld: false });
    expect(embeddedSrc('?src=https://report.example.com/a&authentication=true&key=access_token', 'tok', trusted)?.src).toBe('https://report.example.com/a?access_token=tok');
    expect(embeddedSrc('?src=https://r.example.com/&authentication=1', 'tok', trusted)?.src).toBe('https://r.example.com/?token=tok');
    expect(embeddedSrc('?src=https://r.example.com/&authentication=false&key=t', 'tok', trusted)).toEqual({ src: 'https://r.example.com/', withheld: false });
    // the console's own pages always may have it
    expect(embeddedSrc('?src=/docs/help.html&authentication=1', 'tok')?.src).toBe(`${here}/docs/help.html?token=tok`);
    for (const bad of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', ' JaVaScRiPt:alert(1)']) {
      expect(embeddedSrc(`?src=${encodeURIComponent(bad)}`, 'tok', trusted)).toBeNull();
    }
  });

  it('never hands the token to a site the server does not list: the page loads without it and says so', () => {
    for (const src of ['https://attacker.example/', 'https://report.example.com.attacker.example/', 'http://report.example.com/', 'https://report.example.com:8443/']) {
      const got = embeddedSrc(`?src=${encodeURIComponent(src)}&authentication=1&key=token`, 'tok', ['https://report.example.com']);
      expect(got?.withheld, src).toBe(true);
      expect(got?.src, src).not.toContain('tok');
    }
  });

  it('a missing or blank src names nothing to embed (the page shows an empty state, not the console in itself)', () => {
    for (const q of ['', '?', '?src=', '?src=%20%20', '?authentication=1&key=t']) expect(hasSrc(q), q).toBe(false);
    for (const q of ['?src=/datav/screen/preview?pageId=1', '?src=https://report.example.com/']) expect(hasSrc(q), q).toBe(true);
  });
});
