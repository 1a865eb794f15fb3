// The rulers along the canvas (spec §9: step 50), in canvas units at the designer's scale.
import { memo } from 'react';

export const RULER_STEP = 50;
export const RULER_SIZE = 20;

export const Ruler = memo(function Ruler({ length, scale, vertical }: { length: number; scale: number; vertical?: boolean }) {
  const ticks: number[] = [];
  for (let v = 0; v <= length; v += RULER_STEP) ticks.push(v);
  // a label every tick while they fit, else every other one (every fourth, tenth below 18 %: a phone's fitted canvas)
  const every = [1, 2, 4, 10].find((n) => RULER_STEP * scale * n >= 36) ?? 20;
  const size = length * scale;
  return (
    <svg
      data-testid={vertical ? 'ruler-v' : 'ruler-h'}
      width={vertical ? RULER_SIZE : size}
      height={vertical ? size : RULER_SIZE}
      style={{ display: 'block', background: '#2a2e3b', flex: 'none' }}
      aria-hidden
    >
      {ticks.map((v, i) => {
        const p = Math.round(v * scale) + 0.5;
        const long = i % every === 0;
        return vertical ? (
          <g key={v}>
            <line x1={long ? 6 : 12} x2={RULER_SIZE} y1={p} y2={p} stroke="#6b7085" />
            {long && (
              <text x={2} y={p + 10} fontSize={9} fill="#a3a8ba" writingMode="tb">
                {v}
              </text>
            )}
          </g>
        ) : (
          <g key={v}>
            <line y1={long ? 6 : 12} y2={RULER_SIZE} x1={p} x2={p} stroke="#6b7085" />
            {long && (
              <text y={10} x={p + 2} fontSize={9} fill="#a3a8ba">
                {v}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
});
