// `npm run serve`: one process, one port, the whole product.
import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { SchemaFileError } from './core/schemas.js';

const config = loadConfig();
try {
  const { app, seeded } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`数据服务控制台已启动：http://${shown}:${config.port}/  （数据目录 ${config.dataDir}${config.databaseUrl ? '，平台库 PostgreSQL' : '，平台库 SQLite'}）`);
  for (const { username, password } of seeded.generated) {
    console.log(`首次启动生成的账号：${username} / ${password}  （只显示这一次，请妥善保存）`);
  }
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  if (e instanceof SchemaFileError) console.error(`声明文件有误，拒绝启动：${e.message}`);
  else console.error(`启动失败：${(e as Error).message}`);
  process.exit(1);
}
