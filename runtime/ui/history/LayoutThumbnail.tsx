// A screen's or form's layout drawn small from a version's snapshot (issue 37): the canvas and each widget's box with
// its name, as SVG — a picture of every version without a browser on the server.
import { layoutBoxes } from '../../../common/versionDiff';

const W = 220;

export function LayoutThumbnail({ snapshot, caption }: { snapshot: unknown; caption: string }) {
  if (snapshot === null || snapshot === undefined) {
    return (
      <figure style={{ margin: 0, width: W }}>
        <div style={{ width: W, height: W * 0.5625, background: '#f5f5f5', display: 'grid', placeItems: 'center', color: '#999' }}>无</div>
        <figcaption style={{ fontSize: 12, color: '#666' }}>{caption}</figcaption>
      </figure>
    );
  }
  const l = layoutBoxes(snapshot);
  const h = Math.round((W * l.height) / l.width);
  const font = Math.max(10, l.width / 40);
  return (
    <figure style={{ margin: 0, width: W }} data-testid="history-thumb">
      <svg width={W} height={Math.min(h, 400)} viewBox={`0 0 ${l.width} ${l.height}`} role="img" aria-label={`${caption}的布局`} style={{ display: 'block', border: '1px solid #d9d9d9' }}>
        <rect x={0} y={0} width={l.width} height={l.height} fill={l.background} />
        {l.boxes.map((b) => (
          <g key={b.id}>
            <rect x={b.x} y={b.y} width={b.w} height={b.h} fill="rgba(64,150,255,0.25)" stroke="#4096ff" strokeWidth={Math.max(2, l.width / 400)} />
            <text x={b.x + 6} y={b.y + font + 4} fontSize={font} fill="#fff">
              {b.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption style={{ fontSize: 12, color: '#666' }}>{caption}（{l.boxes.length} 个组件）</figcaption>
    </figure>
  );
}
