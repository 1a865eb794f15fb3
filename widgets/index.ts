export * from './types';
export * from './registry';
export { WidgetView } from './WidgetView';
export { WidgetDataContext, type FetchApiData, type ApiDataRequest } from './data/WidgetDataContext';
export { applyMapping, describeProblem } from './data/mapping';
export { WidgetIcon } from './icons';
export { ChartRendererContext, liveChartCount, type ChartRenderer } from './charts/echarts';
export { SCREEN_FONT } from './theme';
export { liveIntervalCount, WidgetMotionContext } from './timing/sharedInterval';
