// echarts-liquidfill (3.x, the ECharts 5 extension) registers the 'liquidFill' series on our echarts. Imported by
// the liquid fill kind only, so only screens that show one carry it.
// Its ES sources, not the package's `main` (a UMD bundle that requires the whole `echarts` package, the CommonJS
// build: under Node, as in the unit tests, that is a second ECharts that our charts never see). The sources import
// echarts/lib/echarts, the same core as echarts/core.
import 'echarts-liquidfill/src/liquidFill.js';
