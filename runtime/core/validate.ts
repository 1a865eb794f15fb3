// The spec's helper checks (part 1 §5). Where they are used is up to the pages; each also comes
// as an antd/Formily-style rule with a Chinese message.

/** 11 digits, starts with 1, second digit 3-9. */
export function isMobile(value: string): boolean {
  return /^1[3-9]\d{9}$/.test(value);
}

/** 8 to 16 characters. */
export function isPassword(value: string): boolean {
  return value.length >= 8 && value.length <= 16;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** Mainland resident ID: 18 characters, valid birth date, ISO 7064 check digit. */
export function isIdCard(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dX]$/.test(v)) return false;
  const y = Number(v.slice(6, 10));
  const m = Number(v.slice(10, 12));
  const d = Number(v.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(v[i]), 0);
  return ID_CHECK[sum % 11] === v[17];
}

type Rule = { validator: (_: unknown, value: unknown) => Promise<void> };
const rule = (check: (v: string) => boolean, message: string): Rule => ({
  validator: (_, value) => (value === undefined || value === null || value === '' || check(String(value)) ? Promise.resolve() : Promise.reject(new Error(message))),
});

export const mobileRule = rule(isMobile, '请输入正确的手机号码');
export const passwordRule = rule(isPassword, '密码长度须为 8 到 16 个字符');
export const idCardRule = rule(isIdCard, '请输入正确的身份证号码');
