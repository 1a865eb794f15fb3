import { applyMapping } from "./mapping";
import { chartClickItem, flowClickItem, outlineClickItem } from "./click";

describe("a chart click’s item (issue 23 §3)", () => {
  const data = applyMapping(
    [
      { region: "华东", sales: 120, code: "E" },
      { region: "华南", sales: 80, code: "S" },
    ],
    [
      { id: "1", prop: "x", label: "地区", field: "region" },
      { id: "2", prop: "y", label: "销售额", field: "sales" },
    ],
  );
  it("carries name, series, value and the row it was drawn from, found by its category", () => {
    expect(
      chartClickItem(
        {
          componentType: "series",
          name: "华南",
          seriesName: "销售额",
          value: 80,
          dataIndex: 1,
        },
        data,
      ),
    ).toEqual({
      name: "华南",
      series: "销售额",
      value: 80,
      x: "华南",
      y: 80,
      region: "华南",
      sales: 80,
      code: "S",
    });
    // a horizontal chart draws its categories reversed: the name wins over the index
    expect(
      chartClickItem({ name: "华东", value: 120, dataIndex: 1 }, data),
    ).toMatchObject({ code: "E" });
    expect(chartClickItem({ name: "西北", value: [3, 4] }, data)).toEqual({
      name: "西北",
      series: "",
      value: 4,
    });
  });

  it("of a sankey is the node by its name, or the link by its two ends — never a row (links add rows up)", () => {
    expect(flowClickItem({ dataType: "node", name: "华东", value: 200, dataIndex: 0 }, data)).toEqual({ name: "华东", value: 200 });
    expect(
      flowClickItem({ dataType: "edge", name: "华东 > 华南", dataIndex: 1, data: { source: "华东", target: "华南", value: 30 } }, data),
    ).toEqual({ name: "华东 → 华南", source: "华东", target: "华南", value: 30 });
  });

  it("of a radar is the outline clicked (a series over every row), not the row at its index", () => {
    expect(outlineClickItem({ name: "本月", seriesName: "系列", dataIndex: 1, value: [1, 2] }, data)).toEqual({ name: "本月", series: "本月" });
  });
});
