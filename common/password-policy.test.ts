import { describe, expect, it } from 'vitest';
import { MSG_PASSWORD_CLASSES, MSG_PASSWORD_HAS_ACCOUNT, MSG_PASSWORD_LENGTH, passwordFault } from './password-policy';

describe('password policy', () => {
  it('keeps 8–64 characters of three classes without the account', () => {
    expect(passwordFault('Admin@12345', 'admin2')).toBeNull();
    expect(passwordFault('abcdEFGH1', 'zhang')).toBeNull();
    expect(passwordFault('密码Abc12345', 'li')).toBeNull();
  });
  it('refuses the short, the long, the one- and two-class, and one holding the account (any case)', () => {
    expect(passwordFault('Ab1!', 'x')).toBe(MSG_PASSWORD_LENGTH);
    expect(passwordFault(`Ab1!${'x'.repeat(61)}`, 'x')).toBe(MSG_PASSWORD_LENGTH);
    expect(passwordFault('abcdefgh', 'x')).toBe(MSG_PASSWORD_CLASSES);
    expect(passwordFault('abcd1234', 'x')).toBe(MSG_PASSWORD_CLASSES);
    expect(passwordFault('Zhangsan@2026', 'zhangsan')).toBe(MSG_PASSWORD_HAS_ACCOUNT);
    expect(passwordFault('xxZHANGSANxx1!', 'ZhangSan')).toBe(MSG_PASSWORD_HAS_ACCOUNT);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(passwordFault('😀😀😀Aa1', 'x')).toBe(MSG_PASSWORD_LENGTH);
  });
});
