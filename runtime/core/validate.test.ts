import { describe, expect, it } from 'vitest';
import { idCardRule, isIdCard, isMobile, isPassword, mobileRule } from './validate';

describe('helper checks', () => {
  it('mobile: 11 digits, 1 then 3-9', () => {
    expect(isMobile('13800000000')).toBe(true);
    expect(isMobile('19912345678')).toBe(true);
    expect(isMobile('12800000000')).toBe(false);
    expect(isMobile('1380000000')).toBe(false);
    expect(isMobile('138000000001')).toBe(false);
  });
  it('password: 8 to 16 characters', () => {
    expect(isPassword('1234567')).toBe(false);
    expect(isPassword('12345678')).toBe(true);
    expect(isPassword('1234567890123456')).toBe(true);
    expect(isPassword('12345678901234567')).toBe(false);
  });
  it('national ID: format, date and check digit', () => {
    expect(isIdCard('11010519491231002X')).toBe(true);
    expect(isIdCard('11010519491231002x')).toBe(true);
    expect(isIdCard('110105194912310021')).toBe(false); // wrong check digit
    expect(isIdCard('110105194902300026')).toBe(false); // 30 February
    expect(isIdCard('1101051949123100')).toBe(false);
  });
  it('rules pass empty values (required is a separate rule) and reject bad ones', async () => {
    await expect(mobileRule.validator(null, '')).resolves.toBeUndefined();
    await expect(mobileRule.validator(null, '123')).rejects.toThrow('请输入正确的手机号码');
    await expect(idCardRule.validator(null, '11010519491231002X')).resolves.toBeUndefined();
  });
});
