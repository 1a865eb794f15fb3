// The password policy (issue 21), one copy for both sides: the browser's password fields validate with it and the
// server refuses what it refuses (user add, password reset set by an admin, a user's own change). A password is
// 8 to 64 characters, has at least three of the four classes (lower case, upper case, digits, other characters)
// and does not contain the account's name.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
export const PASSWORD_MIN_CLASSES = 3;

export const MSG_PASSWORD_LENGTH = `密码长度须为 ${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} 个字符`;
export const MSG_PASSWORD_CLASSES = `密码须包含大写字母、小写字母、数字和符号中的至少 ${PASSWORD_MIN_CLASSES} 类`;
export const MSG_PASSWORD_HAS_ACCOUNT = '密码不能包含账号';
/** What the policy asks, shown under a password field. */
export const PASSWORD_HINT = `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} 个字符，至少包含大写字母、小写字母、数字和符号中的 ${PASSWORD_MIN_CLASSES} 类，不能包含账号`;

const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];

/** Why `password` breaks the policy for `account`, or null when it keeps it. */
export function passwordFault(password: string, account?: string | null): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return MSG_PASSWORD_LENGTH;
  if (CLASSES.filter((c) => c.test(password)).length < PASSWORD_MIN_CLASSES) return MSG_PASSWORD_CLASSES;
  const name = (account ?? '').trim().toLowerCase();
  if (name.length >= 3 && password.toLowerCase().includes(name)) return MSG_PASSWORD_HAS_ACCOUNT;
  return null;
}
