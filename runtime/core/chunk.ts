// Lazy route chunks: a load that fails or takes longer than 120 s is reported as a
// ChunkLoadError, so the shell can tell "the page code did not arrive" from a page bug.
export const CHUNK_TIMEOUT = 120_000;

export class ChunkLoadError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

export function loadChunk<T>(loader: () => Promise<T>, timeout = CHUNK_TIMEOUT): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`页面代码加载超时（${timeout / 1000} 秒）`)), timeout);
    loader().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(`页面代码加载失败：${err instanceof Error ? err.message : String(err)}`, err));
      },
    );
  });
}
