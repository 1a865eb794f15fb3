import { describe, expect, it } from 'vitest';
import { safeFrameSrc, safeHref } from './urls';

describe('safeHref', () => {
  it('keeps http(s), mailto and in-app paths', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://intranet:8080/')).toBe('http://intranet:8080/');
    expect(safeHref('mailto:ops@example.com')).toBe('mailto:ops@example.com');
    expect(safeHref('/api/x?id=1')).toBe('/api/x?id=1');
    expect(safeHref('  https://example.com  ')).toBe('https://example.com/');
  });

  it('refuses everything that could run code or leave for another host unnoticed', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'javascript&colon;alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'blob:https://example.com/x',
      'file:///etc/passwd',
      '//evil.example/x',
      '/\\evil.example/x',
      'evil.example/x',
      '',
      null,
      42,
    ]) {
      expect(safeHref(bad), String(bad)).toBeNull();
    }
  });

  it('keeps mailto out of frames', () => {
    expect(safeFrameSrc('mailto:a@b.c')).toBeNull();
    expect(safeFrameSrc('https://example.com')).toBe('https://example.com/');
  });
});
