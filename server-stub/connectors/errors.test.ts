// One mapping of connection failures to the reasons the dialogs show (SQL, FTP and SSH alike).
import { CONNECT_REASON, ConnectReasonError, ConnectTimeoutError, connectionReason, connectionTestMessage, reportConnectFailure } from './errors.js';
import { TargetError } from './target.js';
import { SqlConnectorError } from './sql/types.js';

const err = (fields: Record<string, unknown>, message = 'driver text') => Object.assign(new Error(message), fields);

describe('connectionReason', () => {
  it.each([
    ['a socket refused', err({ code: 'ECONNREFUSED' }), '连接被拒绝（该地址和端口上没有服务在监听）'],
    ['an OS connect timeout', err({ code: 'ETIMEDOUT' }), '等待超时（7秒内没有应答）'],
    ['pg connectionTimeoutMillis', err({}, 'timeout expired'), '等待超时（7秒内没有应答）'],
    ['ssh2 readyTimeout', err({ level: 'client-timeout' }, 'Timed out while waiting for handshake'), '等待超时（7秒内没有应答）'],
    ['basic-ftp', err({}, 'Timeout (control socket)'), '等待超时（7秒内没有应答）'],
    ['the test deadline', new ConnectTimeoutError(7), '等待超时（7秒内没有应答）'],
    ['an unknown host', err({ code: 'ENOTFOUND' }), '无法连接：找不到该主机'],
    ['no route', err({ code: 'EHOSTUNREACH' }), '无法连接：主机不可达'],
    ['pg wrong password', err({ code: '28P01' }), CONNECT_REASON.auth],
    ['pg unknown role', err({ code: '28000' }), CONNECT_REASON.auth],
    ['mysql wrong password', err({ code: 'ER_ACCESS_DENIED_ERROR', errno: 1045 }), CONNECT_REASON.auth],
    ['ftp 530', Object.assign(err({ code: 530 }), { name: 'FTPError' }), CONNECT_REASON.auth],
    ['ssh auth', err({ level: 'client-authentication' }, 'All configured authentication methods failed'), CONNECT_REASON.auth],
    ['pg missing database', err({ code: '3D000' }), CONNECT_REASON.noDatabase],
    ['mysql missing database', err({ code: 'ER_BAD_DB_ERROR' }), CONNECT_REASON.noDatabase],
    ['a target refused by policy', new TargetError('不允许连接该地址'), '不允许连接该地址'],
    ['a name that does not resolve', new SqlConnectorError('无法解析该地址', 'REFUSED'), '无法连接：无法解析该地址'],
    ['a bad setting of ours', new SqlConnectorError('SQLite 数据库文件不存在：x.db', 'CONFIG'), 'SQLite 数据库文件不存在：x.db'],
    ['a field the FTP test refuses', new ConnectReasonError('密码含有换行或空字符'), '密码含有换行或空字符'],
    ['anything else: no driver text', err({ code: 'EPROTO' }, 'secret-ish driver text'), CONNECT_REASON.unreachable],
    ['a string', 'whatever', CONNECT_REASON.unreachable],
    ['nothing', undefined, CONNECT_REASON.unreachable],
  ])('%s', (_label, e, reason) => {
    expect(connectionReason(e, 7)).toBe(reason);
  });

  it('never throws, whatever the error is made of', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); } });
    expect(connectionReason(hostile, 3)).toBe(CONNECT_REASON.unreachable);
    expect(() => reportConnectFailure(() => { throw new Error('reporter'); }, () => 'x', new Error('y'), 3)).not.toThrow();
  });

  it('the answer says 连接成功, or 连接失败 with the reason', () => {
    expect(connectionTestMessage(true, '')).toBe('连接成功');
    expect(connectionTestMessage(false, '账号或密码错误')).toBe('连接失败：账号或密码错误');
    expect(connectionTestMessage(false, '')).toBe('连接失败');
  });
});
