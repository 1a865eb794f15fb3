// Settings come only from the environment (README has the table).
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use for the platform store (tests use a fresh one). */
  databaseSchema?: string;
  redisUrl?: string;
  adminPassword?: string;
  secretKey?: string;
  /** Session lifetime in seconds. */
  sessionTtl: number;
  /** When false, every signed-in user holds every permission (spec: "permission switch"). */
  permissionSwitch: boolean;
  /** Seed demo data (a SQLite demo data source, variables) on first start. */
  demoData: boolean;
  /** Password for the demo users; generated when unset. */
  demoPassword?: string;
  /** Where the built browser app lives. */
  distDir: string;
  /** Repository root: schemas/ is read from here. */
  rootDir: string;
  /**
   * Which proxies may name the client address (X-Forwarded-For): false (default: none, the TCP peer is
   * the client), a hop count, or addresses / CIDRs. Never a blanket true: any client could then pick the
   * address that sign-in limits and logs see.
   */
  trustProxy: false | number | string[];
}

function parseTrustProxy(v: string | undefined): false | number | string[] {
  const t = (v ?? '').trim();
  if (!t || /^(0|off|false|no)$/i.test(t)) return false;
  if (/^\d+$/.test(t)) return Number(t);
  return t.split(',').map((x) => x.trim()).filter(Boolean);
}

const rootDir = path.resolve(import.meta.dirname, '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const ttl = Number(env.SESSION_TTL ?? 8 * 3600);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(rootDir, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    secretKey: env.SECRET_KEY || undefined,
    sessionTtl: Number.isFinite(ttl) && ttl > 0 ? ttl : 8 * 3600,
    permissionSwitch: !/^(0|off|false|no)$/i.test(env.PERMISSION_SWITCH ?? 'on'),
    demoPassword: env.DEMO_PASSWORD || undefined,
    demoData: !/^(0|off|false|no)$/i.test(env.DEMO_DATA ?? 'on'),
    distDir: path.resolve(env.DIST_DIR ?? path.join(rootDir, 'dist')),
    // SCHEMAS_ROOT: a folder holding another schemas/ (tests use it to prove a bad file refuses the start).
    rootDir: env.SCHEMAS_ROOT ? path.resolve(env.SCHEMAS_ROOT) : rootDir,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
