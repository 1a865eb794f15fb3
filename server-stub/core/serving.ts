// How the one process serves what it serves (DESIGN §7 "Serving"):
//  - security headers on every answer (@fastify/helmet), with a Content-Security-Policy the browser app
//    really runs under;
//  - API answers (/api, /open — successes, errors, 401s, 404s) are never cached, never sniffed, and carry
//    a policy that lets them run nothing;
//  - the built app from DIST_DIR: pre-compressed copies (`.br`, `.gz`, written by the build) chosen by
//    Accept-Encoding, content-hashed files under /assets/ cached for a year as immutable, everything else
//    (index.html above all, also when it answers a client-side route) revalidated on every use.
// Routes that set their own stricter policy (the sandboxed /files/... images) keep it: helmet writes its
// headers first, in onRequest, and a handler's own header replaces them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { isGuardedPath } from './paths.js';

/**
 * The policy of everything the app serves. Every directive is what the app needs and no more:
 *  - default-src 'self': nothing from another origin unless named below;
 *  - script-src 'self': the built chunks only, no inline script; no eval, except in the app's own
 *    document (APP_DOCUMENT_CSP below);
 *  - style-src 'self' 'unsafe-inline': antd's CSS-in-JS and monaco write <style> elements and style
 *    attributes at run time; index.html has one inline <style>;
 *  - img-src 'self' data: blob:: uploaded images (/files/...), inline images of antd and monaco, local
 *    previews of files being uploaded;
 *  - font-src 'self': monaco's codicon font is a built asset;
 *  - worker-src 'self': monaco's editor and JSON workers are built assets started by URL (no blob:);
 *  - connect-src 'self': the app talks to its own /api and /open only;
 *  - frame-src 'self' http: https:: a menu entry of layout `iframe` embeds the http(s) address it declares
 *    (only http(s) and in-app paths pass runtime/core/urls.ts); what it embeds runs in its own origin;
 *  - object-src 'none', base-uri 'self', form-action 'self';
 *  - frame-ancestors 'self' (with X-Frame-Options: SAMEORIGIN for old browsers): only the console frames its
 *    own pages (the embedded page /datav/embedded?src=/… showing one of them); no other site can.
 * No upgrade-insecure-requests: the product is served over plain http on a LAN by default, where that
 * directive would send every asset request to an https port that does not exist.
 */
export const APP_CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ["'self'", 'http:', 'https:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/**
 * The app's document (index.html, also as the answer to a client-side route) adds 'unsafe-eval', because
 * two things in the app compile code from strings at run time and break without it (both seen failing
 * with an EvalError under the policy above):
 *  - the page manager (runtime/pages/PageManager/validate.ts) compiles page.schema.json with ajv, which
 *    generates its validator with `new Function`, when the page's chunk loads;
 *  - the CRUD dialogs' Formily forms compile their declared `{{ … }}` reactions (e.g. datasource/model
 *    `visible: "{{$deps[0] !== 'sqlite'}}"`) with `new Function` (@formily/json-schema).
 * A CSP applies to a whole document and the app is one document, so this cannot be narrowed to those
 * routes. Every other answer (assets, workers, docs, API, files) keeps the policy without it. To drop it:
 * give the page manager an ajv standalone validator generated at build time, and register a Formily
 * compiler (Schema.registerCompiler) that evaluates the declarations' small expression language itself.
 */
export const APP_DOCUMENT_CSP_DIRECTIVES: Record<string, string[]> = {
  ...APP_CSP_DIRECTIVES,
  'script-src': ["'self'", "'unsafe-eval'"],
};

export function cspHeader(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

export const APP_CSP = cspHeader(APP_CSP_DIRECTIVES);
export const APP_DOCUMENT_CSP = cspHeader(APP_DOCUMENT_CSP_DIRECTIVES);

/** API answers are data, never documents: they may load, run or be framed by nothing. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Cache-Control of content-hashed build output: a new build gives a new name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of files whose name does not change (index.html, favicon, docs): revalidate each time. */
export const REVALIDATE = 'no-cache';

/** The scopes serveApp registers @fastify/static in: every route they hold is an app file. */
const appFileScopes = new WeakSet<FastifyInstance>();

/**
 * Security headers on every answer, the API's own headers, and the marking of the app's file routes.
 * Call first: the auth guard's 401 is thrown from an onRequest hook (headers set after it would be
 * missing), and its onRoute hook reads `config.public` when a route is added (a hook added after it,
 * e.g. in the static scope, would mark the route too late for the route table).
 */
export async function installServing(app: FastifyInstance): Promise<void> {
  // @fastify/static takes no per-route config: the built app's routes are public, and say so
  app.addHook('onRoute', function markAppFiles(this: FastifyInstance, route) {
    if (appFileScopes.has(this)) route.config = { ...(route.config as object), public: true, appFiles: true };
  });
  // @fastify/helmet builds helmet's middleware anew on every request (the policy parsed each time: issue 36's
  // profile). The headers do not depend on the request, so they are taken once, from helmet itself answering a
  // throwaway app, and set on every answer here, where helmet would set them (onRequest, before any handler)
  const headers = await helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: APP_CSP_DIRECTIVES },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // honoured only over https (behind a TLS proxy); no includeSubDomains: other hosts of the domain are not ours
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: false },
    // the app embeds no cross-origin resources that would need CORP opt-in; keep helmet's other defaults
    crossOriginEmbedderPolicy: false,
  });
  const entries = Object.entries(headers);
  app.addHook('onRequest', async (_req, reply) => {
    // on the raw answer, as helmet does: a header set later (by a handler or the static files) replaces them
    for (const [k, v] of entries) reply.raw.setHeader(k, v);
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!isGuardedPath(req.url)) return;
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', API_CSP);
    reply.header('x-frame-options', 'DENY');
  });
}

/** The headers helmet sets with `options`, read from its answer to a throwaway app. */
async function helmetHeaders(options: Parameters<typeof helmet>[1]): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => 'ok');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const plain = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(Object.entries(res.headers).filter(([k, v]) => !plain.has(k) && typeof v === 'string')) as Record<string, string>;
}

/** The built app's files, and the not-found answer (index.html for client-side routes, JSON otherwise). */
export async function serveApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasDist = existsSync(path.join(distDir, 'index.html'));
  const assetsDir = path.join(distDir, 'assets') + path.sep;
  const appDocument = path.join(distDir, 'index.html');
  // Files are looked up per request (a rebuild while running is served at once).
  if (hasDist) {
    await app.register(async (scope) => {
      // the built app is public: its routes say so (installServing's onRoute hook), since the guard
      // decides by the matched route alone
      appFileScopes.add(scope);
      await scope.register(fastifyStatic, {
        root: distDir,
        index: ['index.html'],
        preCompressed: true,
        cacheControl: false,
        setHeaders(res, filePath) {
          // filePath is the file sent: `x.js`, or its `x.js.br` / `x.js.gz` copy
          res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
          res.setHeader('vary', 'accept-encoding');
          if (filePath.replace(/\.(br|gz)$/, '') === appDocument) res.setHeader('content-security-policy', APP_DOCUMENT_CSP);
        },
      });
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // The browser app owns every other GET path (client-side routes); a missing file (/assets/x.js) stays a 404.
    const route = req.url.split('?')[0];
    const isAppRoute = !isGuardedPath(req.url) && !/\.[a-z0-9]+$/i.test(route);
    if (hasDist && (req.method === 'GET' || req.method === 'HEAD') && isAppRoute) return reply.sendFile('index.html');
    return reply.code(404).header('cache-control', 'no-store').send({ status: 1, msg: '接口不存在', data: null });
  });
}
