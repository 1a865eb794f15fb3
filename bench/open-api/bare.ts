// The stack's own limit for bench/open-api (issue 36): a bare Fastify app, in a process of its own, answering a
// small JSON body (the size of a one-row published answer) to POST /bare. Started by run.ts on PORT.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const answer = { status: 0, msg: '操作成功', data: [{ id: 42, name: 'item42', price: 42 }] };
app.post('/bare', async () => answer);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
