// echarts-wordcloud (2.x, the ECharts 5 extension) registers the 'wordCloud' series on our echarts (it imports
// echarts/lib/echarts, the same core as echarts/core). It lays the words out on a 2D canvas and throws when
// imported where there is none, so it is imported here only, on first use, and only where a canvas can draw.
const inJsdom = typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent);

let loaded = false;
let loading: Promise<boolean> | undefined;

/** Whether this page can lay out a word cloud (a 2D canvas; jsdom has none, and asking it logs an error). */
export function canLayOutWords(): boolean {
  if (inJsdom || typeof document === 'undefined') return false;
  try {
    return Boolean(document.createElement('canvas').getContext('2d'));
  } catch {
    return false;
  }
}

/** True once the series is registered (a later widget then draws at once). */
export function wordCloudLoaded(): boolean {
  return loaded;
}

/** Registers the series once; false where words cannot be laid out. */
export function loadWordCloudSeries(): Promise<boolean> {
  loading ??= canLayOutWords()
    ? import('echarts-wordcloud').then(() => {
        loaded = true;
        return true;
      })
    : Promise.resolve(false);
  return loading;
}
