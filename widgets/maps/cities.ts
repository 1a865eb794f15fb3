// Where the fly-line map's places are: [longitude, latitude] of the provincial capitals and some major cities
// (rounded to 0.01°). A name not here may still be a region of the map (广东, 内蒙古…): its label point is used.
import { provinceCentre, provinceName } from './china';

export const CITY_COORDS: Readonly<Record<string, [number, number]>> = {
  北京: [116.4, 39.9],
  天津: [117.2, 39.13],
  上海: [121.47, 31.23],
  重庆: [106.55, 29.56],
  石家庄: [114.51, 38.04],
  太原: [112.55, 37.87],
  呼和浩特: [111.75, 40.84],
  沈阳: [123.43, 41.8],
  长春: [125.32, 43.82],
  哈尔滨: [126.53, 45.8],
  南京: [118.8, 32.06],
  杭州: [120.16, 30.27],
  合肥: [117.23, 31.82],
  福州: [119.3, 26.08],
  南昌: [115.86, 28.68],
  济南: [117.12, 36.65],
  郑州: [113.63, 34.75],
  武汉: [114.31, 30.59],
  长沙: [112.94, 28.23],
  广州: [113.26, 23.13],
  南宁: [108.37, 22.82],
  海口: [110.2, 20.04],
  成都: [104.07, 30.57],
  贵阳: [106.63, 26.65],
  昆明: [102.83, 24.88],
  拉萨: [91.14, 29.65],
  西安: [108.94, 34.34],
  兰州: [103.83, 36.06],
  西宁: [101.78, 36.62],
  银川: [106.23, 38.49],
  乌鲁木齐: [87.62, 43.83],
  台北: [121.56, 25.04],
  香港: [114.17, 22.32],
  澳门: [113.54, 22.2],
  深圳: [114.06, 22.54],
  青岛: [120.38, 36.07],
  大连: [121.61, 38.91],
  厦门: [118.09, 24.48],
  宁波: [121.55, 29.87],
  苏州: [120.59, 31.3],
  无锡: [120.31, 31.49],
  东莞: [113.75, 23.02],
  佛山: [113.12, 23.02],
  三亚: [109.51, 18.25],
  喀什: [75.99, 39.47],
  桂林: [110.29, 25.27],
  洛阳: [112.45, 34.62],
  烟台: [121.45, 37.46],
  珠海: [113.58, 22.27],
  温州: [120.7, 28.0],
};

/** A place's coordinates: a city of the table (北京 or 北京市), else a region's label point; undefined if unknown. */
export function placeCoords(raw: unknown): [number, number] | undefined {
  const name = raw == null ? '' : String(raw).trim();
  const city = CITY_COORDS[name] ?? CITY_COORDS[name.replace(/市$/, '')];
  return city ?? provinceCentre[provinceName(name)];
}
