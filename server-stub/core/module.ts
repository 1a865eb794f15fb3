import type { FastifyPluginAsync } from 'fastify';
import type { Kysely, Migration } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import type { LoadedSchemas } from './schemas.js';

/** Which of the three log files (dictionary SERVER_NAME) a module's requests go to. */
export type ServiceName = 'auth' | 'admin' | 'platform';

/** What a module's seed gets: the settings, the declarations, and where to note passwords generated on this start. */
export interface SeedContext {
  config: Config;
  schemas: LoadedSchemas;
  /** Passwords generated on this start, printed once by main.ts. */
  generated: { username: string; password: string }[];
}

/**
 * One backend module: its routes (under prefix), its log file, its migrations and its seed. The store knows no
 * module: each brings its tables (migrations) and its first data (seed), run in the order of the module list,
 * after every migration.
 */
export interface ServerModule {
  name: string;
  prefix: string;
  service: ServiceName;
  /** Keys are sorted globally across modules: use '20261122_10_name'. */
  migrations?: Record<string, Migration>;
  seed?: (db: Kysely<Database>, ctx: SeedContext) => Promise<void>;
  plugin: FastifyPluginAsync;
}
