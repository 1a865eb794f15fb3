// Users for server tests: made through 用户管理's own call (POST /api/system/user/save, as admin), signed in with the
// one-time password the save answers, and past the first sign-in's password change, as a person would be.
import { encryptFor, type TestServer } from './server.js';

/** The password every user made here ends with. */
export const PERSON_PASSWORD = 'Fresh#Pass2026';

/** A user with these roles (ids) and department: their id and a session token after the first password change. */
export async function addPerson(s: TestServer, username: string, roleIds: number[], deptId?: number, extra: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const made = await s.request('POST', '/api/system/user/save', { username, nickName: username, roleIds, ...(deptId ? { deptId } : {}), status: 0, ...extra });
  if (made.body.status !== 0) throw new Error(`user ${username}: ${made.body.msg}`);
  const { id, password } = made.body.data as { id: number; password: string };
  const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
  const first = await s.loginAs(username, password);
  const changed = await s.request<{ token: string }>('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, password), newPassword: encryptFor(pem, PERSON_PASSWORD) }, first);
  if (changed.body.status !== 0) throw new Error(`user ${username}: ${changed.body.msg}`);
  return { id, token: changed.body.data.token };
}
