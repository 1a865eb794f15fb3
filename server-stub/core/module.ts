import type { FastifyPluginAsync } from 'fastify';
import type { Kysely, Migration } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import type { PlatformService } from './platform.js';
import type { LoadedSchemas } from './schemas.js';

/** Which of the three log files (dictionary SERVER_NAME) a module's requests go to. */
export type ServiceName = 'auth' | 'admin' | 'platform';

/** What shipped() answers: whether the module's shipped defaults changed since the store last recorded them. */
export type Shipped<T> = { changed: false } | { changed: true; /** null: never recorded (a first start, or a store older than the record) */ before: T | null };

/** What a module's seed gets: the settings, the declarations, and where to note passwords generated on this start. */
export interface SeedContext {
  config: Config;
  schemas: LoadedSchemas;
  /** Passwords generated on this start, printed once by main.ts. */
  generated: { username: string; password: string }[];
  /** The store has never been seeded: this is its first start (first data such as accounts is written only now). */
  first: boolean;
  /**
   * Records `value` as the defaults the module ships under `name` and answers what it shipped when the store last
   * recorded them, so that a seed applies only what the shipped defaults changed (a migration of the defaults,
   * run once per store) and never undoes what admins changed in the store. Unchanged: nothing to do.
   */
  shipped<T>(name: string, value: T): Promise<Shipped<T>>;
}

/**
 * One backend module: its routes (under prefix), its log file, its migrations and its seed. The store knows no
 * module: each brings its tables (migrations) and its first data (seed), run in the order of the module list,
 * after every migration, in one transaction, by one instance at a time (store/db.ts startLock). A seed writes
 * its first data on the store's first start (ctx.first) and afterwards only what the shipped defaults changed
 * (ctx.shipped): a restart with the same defaults writes nothing.
 */
export interface ServerModule {
  name: string;
  prefix: string;
  service: ServiceName;
  /** Keys are sorted globally across modules: use '20261122_10_name'. */
  migrations?: Record<string, Migration>;
  seed?: (db: Kysely<Database>, ctx: SeedContext) => Promise<void>;
  /**
   * The platform services (core/platform.ts) the plugin uses, as `app.<name>`: checked when the module is
   * registered (Fastify refuses to start it without them). A module never imports another module's service.
   */
  needs?: PlatformService[];
  plugin: FastifyPluginAsync;
}
