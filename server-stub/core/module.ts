import type { FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely';

/** Which of the three log files (dictionary SERVER_NAME) a module's requests go to. */
export type ServiceName = 'auth' | 'admin' | 'platform';

/** One backend module: its routes (under prefix), its log file and its migrations. */
export interface ServerModule {
  name: string;
  prefix: string;
  service: ServiceName;
  /** Keys are sorted globally across modules: use '20261122_10_name'. */
  migrations?: Record<string, Migration>;
  plugin: FastifyPluginAsync;
}
