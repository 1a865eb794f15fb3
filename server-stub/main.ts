// `npm run serve`: one process, one port, the whole product.
import { loadConfig, startRefusal } from './config.js';
import { buildApp } from './app.js';
import { drain } from './core/health.js';
import { SchemaFileError } from './core/schemas.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (e) {
  console.error(`配置有误，拒绝启动：${(e as Error).message}`);
  process.exit(1);
}
const refused = startRefusal(config);
if (refused) {
  console.error(`拒绝启动：${refused}`);
  process.exit(1);
}
try {
  const { app, seeded, loggers } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`数据服务控制台已启动：http://${shown}:${config.port}/  （数据目录 ${config.dataDir}${config.databaseUrl ? '，平台库 PostgreSQL' : '，平台库 SQLite'}）`);
  for (const { username, password } of seeded.generated) {
    console.log(`首次启动生成的账号：${username} / ${password}  （只显示这一次，请妥善保存）`);
  }
  // SIGTERM / SIGINT: not ready at once, answer what was accepted, flush, close, exit 0 within SHUTDOWN_GRACE
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const closed = await drain(app, { delayMs: config.shutdownDelayMs, graceMs: config.shutdownGraceMs, note: (m) => loggers.platform.info(m) }).catch(() => false);
    if (!closed) console.error(`停止超时（${config.shutdownGraceMs / 1000} 秒），强制退出`);
    process.exit(closed ? 0 : 1);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  if (e instanceof SchemaFileError) console.error(`声明文件有误，拒绝启动：${e.message}`);
  else console.error(`启动失败：${(e as Error).message}`);
  process.exit(1);
}
