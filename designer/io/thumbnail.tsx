// A screen's thumbnail, taken in the browser at every save (issue 22 item 3) and shown in the screen list.
// The document is drawn once more off screen at full size, as the designer's canvas draws it (charts as one SVG
// picture each, widgets still, hidden layers left out) but without handles, guides or the selection; then
// modern-screenshot (loaded only now) paints that stage into a THUMBNAIL_WIDTH px wide picture: WebP where the
// browser encodes it, else PNG. The server checks the picture again (type by content, size).
import { createRoot } from 'react-dom/client';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { ChartRendererContext, WidgetDataContext, WidgetMotionContext, type FetchApiData } from '../../widgets';
import { DEFAULT_CANVAS_BACKGROUND } from '../../common/canvas';
import type { Doc } from '../editor/history';

export const THUMBNAIL_WIDTH = 320;
/** What the server takes (server-stub/modules/datav/thumbnails.ts): a bigger picture is not sent. */
export const THUMBNAIL_MAX_BYTES = 512 * 1024;

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once every picture under `el` has loaded or failed (charts set theirs after their first effect). */
async function picturesSettled(el: HTMLElement, deadline: number) {
  for (;;) {
    const pending = [...el.querySelectorAll('img')].filter((img) => !img.complete);
    if (!pending.length || Date.now() > deadline) return;
    await Promise.race([Promise.all(pending.map(
          (img) =>
            new Promise((r) => {
              img.addEventListener('load', r, { once: true });
              img.addEventListener('error', r, { once: true });
            }),
        )), sleep(200)]);
  }
}

/**
 * Draws the document off screen and answers its picture, THUMBNAIL_WIDTH px wide (the canvas's proportions).
 * `fetchApiData` lets widgets fed by an API show their rows, as on the designer's canvas.
 */
export async function captureThumbnail(doc: Doc, fetchApiData?: FetchApiData, timeoutMs = 8000): Promise<Blob> {
  const { domToBlob } = await import('modern-screenshot');
  const { width, height } = doc.canvas;
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  // laid out (a stage that is not rendered has no sizes to copy), but off screen and out of every hit test
  Object.assign(host.style, { position: 'fixed', left: '-100000px', top: '0', width: `${width}px`, height: `${height}px`, overflow: 'hidden', pointerEvents: 'none', contain: 'strict' });
  document.body.appendChild(host);
  const root = createRoot(host);
  try {
    root.render(
      <WidgetDataContext.Provider value={{ fetchApiData }}>
        <ChartRendererContext.Provider value="image">
          <WidgetMotionContext.Provider value={false}>
            <CanvasStage canvas={doc.canvas} widgets={doc.widgets} />
          </WidgetMotionContext.Provider>
        </ChartRendererContext.Provider>
      </WidgetDataContext.Provider>,
    );
    const deadline = Date.now() + timeoutMs;
    // mounted, charts drawn in their effects, data resolved (STATIC at once; an API's rows when they come)
    await frame();
    await sleep(120);
    await frame();
    await picturesSettled(host, deadline);
    await document.fonts?.ready;
    const stage = host.querySelector<HTMLElement>('[data-testid="canvas-stage"]');
    if (!stage) throw new Error('no stage');
    const scale = THUMBNAIL_WIDTH / width;
    const options = { width, height, scale, backgroundColor: doc.canvas.backgroundColor || DEFAULT_CANVAS_BACKGROUND, timeout: Math.max(1000, deadline - Date.now()) };
    let blob = await domToBlob(stage, { ...options, type: 'image/webp', quality: 0.85 });
    // a browser that cannot encode WebP answers PNG; a picture too big for the server is tried again as JPEG
    if (blob.size > THUMBNAIL_MAX_BYTES) blob = await domToBlob(stage, { ...options, type: 'image/jpeg', quality: 0.8 });
    return blob;
  } finally {
    root.unmount();
    host.remove();
  }
}

/** The file name an upload gives a picture of this type (the server checks that name against the content). */
export function thumbnailFileName(blob: Blob): string {
  return blob.type === 'image/webp' ? 'thumbnail.webp' : blob.type === 'image/jpeg' ? 'thumbnail.jpg' : 'thumbnail.png';
}
