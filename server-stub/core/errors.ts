// Every failure becomes the envelope with a Chinese message: never a stack trace, never a bare 500 body.
import type { FastifyError, FastifyInstance } from 'fastify';
import { BizError, LOGIN_URL, STATUS, UnsignedError } from './envelope.js';

const TYPE_ZH: Record<string, string> = {
  string: '字符串',
  number: '数字',
  integer: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  null: '空值',
};

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, any>;
  parentSchema?: { title?: string; properties?: Record<string, { title?: string }> };
  schema?: unknown;
  message?: string;
}

function fieldName(path: string): string {
  return path.replace(/^\//, '').replace(/\//g, '.');
}

/** One Chinese sentence naming the field, from the first ajv error. */
export function describeValidation(err: AjvLikeError, where: string): string {
  const p = err.params ?? {};
  const named = (field: string, title?: string) => (title ? `${title}（${field}）` : field);
  const at = err.instancePath ? named(fieldName(err.instancePath), err.parentSchema?.title) : '';
  switch (err.keyword) {
    case 'required': {
      const f = String(p.missingProperty);
      return `缺少必填字段：${named(f, err.parentSchema?.properties?.[f]?.title)}`;
    }
    case 'type': {
      const types = String(p.type).split(',').map((t) => TYPE_ZH[t] ?? t).join('或');
      return at ? `字段 ${at} 类型错误，应为${types}` : `${where}必须是${types}`;
    }
    case 'maxLength':
      return `字段 ${at} 长度不能超过 ${p.limit} 个字符`;
    case 'minLength':
      return p.limit === 1 ? `字段 ${at} 不能为空` : `字段 ${at} 长度不能少于 ${p.limit} 个字符`;
    case 'maximum':
      return `字段 ${at} 不能大于 ${p.limit}`;
    case 'minimum':
      return `字段 ${at} 不能小于 ${p.limit}`;
    case 'maxItems':
      return `字段 ${at || where} 最多 ${p.limit} 项`;
    case 'enum':
      return `字段 ${at} 取值不合法，可选值：${(p.allowedValues as unknown[]).join('、')}`;
    case 'pattern':
    case 'format':
      return `字段 ${at} 格式不正确`;
    case 'additionalProperties':
      return `不支持的字段：${at ? `${at}.` : ''}${p.additionalProperty}`;
    default:
      return at ? `字段 ${at} 不合法` : `${where}不合法`;
  }
}

/** Faults of a malformed multipart body, raised by busboy while a handler reads the parts. */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Unexpected end of (form|file|multipart data)|Part terminated early|Malformed (part header|urlencoded form))/;

const PART_ZH: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validation?: AjvLikeError[]; validationContext?: string }, req, reply) => {
    if (error instanceof UnsignedError) {
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
      return reply.code(400).send({ status: STATUS.ERROR, msg: '上传内容格式不正确', data: null });
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
