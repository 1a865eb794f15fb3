// Every failure becomes the envelope with a Chinese message: never a stack trace, never a bare 500 body.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BizError, LOGIN_URL, SESSION_ENDED_HEADER, STATUS, UnsignedError } from './envelope.js';
import { describeAjvError, type AjvErrorLike, type Labeler } from '../../common/ajv-messages.js';

interface AjvLikeError extends AjvErrorLike {
  parentSchema?: { title?: string; properties?: Record<string, { title?: string }> };
}

/** A request field as people read it: its schema's title with the name, 组名称（name）; the name alone without one. */
const titled: Labeler = (field, err, child) => {
  const schema = (err as AjvLikeError).parentSchema;
  const title = child === undefined ? schema?.title : schema?.properties?.[child]?.title;
  return title ? `${title}（${field}）` : field;
};

/** One Chinese sentence naming the field, from the first ajv error (common/ajv-messages.ts, shared with the browser). */
export function describeValidation(err: AjvLikeError, where: string): string {
  return describeAjvError(err, { label: titled, root: where });
}

/** What a client is told of a multipart body it cut short or broke (here and where a handler finds one itself). */
export const MSG_MALFORMED_UPLOAD = '上传内容格式不正确';
/** Faults of a malformed multipart body, raised by busboy while a handler reads the parts. */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Unexpected end of (form|file|multipart data)|Part terminated early|Malformed (part header|urlencoded form))/;

const PART_ZH: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validation?: AjvLikeError[]; validationContext?: string }, req, reply) => {
    if (error instanceof UnsignedError) {
      if (error.ended) reply.header(SESSION_ENDED_HEADER, '1');
      return reply.code(401).send({ status: STATUS.UNSIGNED, msg: error.message, data: LOGIN_URL });
    }
    if (error instanceof BizError) {
      return reply.code(error.httpStatus).send({ status: STATUS.ERROR, msg: error.message, data: null });
    }
    if (error.validation?.length) {
      const where = PART_ZH[error.validationContext ?? 'body'] ?? '请求';
      return reply.code(400).send({ status: STATUS.ERROR, msg: describeValidation(error.validation[0], where), data: null });
    }
    if (!error.statusCode && MALFORMED_MULTIPART.test(error.message ?? '')) {
      return reply.code(400).send({ status: STATUS.ERROR, msg: MSG_MALFORMED_UPLOAD, data: null });
    }
    const code = error.statusCode ?? 500;
    if (code < 500) {
      const msg =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError
          ? '请求体不是合法的 JSON'
          : code === 413
            ? '请求体过大'
            : code === 415
              ? '不支持的请求内容类型'
              : code === 404
                ? '接口不存在'
                : code === 429
                  ? '请求过于频繁，请稍后再试'
                  : '请求不合法';
      return reply.code(code).send({ status: STATUS.ERROR, msg, data: null });
    }
    req.log.error({ err: { message: error.message, stack: error.stack } }, 'unhandled error');
    return reply.code(500).send({ status: STATUS.ERROR, msg: '服务器异常', data: null });
  });
}

/**
 * Fastify's own answer to an address its router cannot take (FST_ERR_BAD_URL: a broken %-escape;
 * FST_ERR_MAX_PARAM_LENGTH: an over-long path parameter) echoes the path and comes before every hook, so it
 * would carry none of the security headers. This one answers the envelope, with the headers set here.
 */
export function answerBadAddress(error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(error.statusCode === 414 ? 414 : 400)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .send({ status: STATUS.ERROR, msg: '请求地址不合法', data: null });
}

/**
 * A request the HTTP parser gives up on before any route sees it (not arrived whole within REQUEST_TIMEOUT,
 * headers too large, unparsable): the envelope, then the connection closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ['408 Request Timeout', '请求超时：请求未在规定时间内发送完整'] : err.code === 'HPE_HEADER_OVERFLOW' ? ['431 Request Header Fields Too Large', '请求头过大'] : ['400 Bad Request', '请求不合法'];
  const body = JSON.stringify({ status: STATUS.ERROR, msg, data: null });
  if (socket.writable) {
    const head = [`HTTP/1.1 ${status}`, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'X-Content-Type-Options: nosniff', 'Cache-Control: no-store', 'Connection: close'];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
