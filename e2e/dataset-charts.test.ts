// Dataset charts on a screen (issue 35 §2–3, "How it will be checked"), in Chromium, with no SQL typed and no
// variable declared: a dataset on a SQLite table; a bar chart of 销售额 (sum) by 省份, a table of the rows and a
// dropdown filter on 省份, all three fed by the dataset; choosing 浙江 in the filter filters the chart and the table;
// a click on a bar offers 联动 (the table filters by the clicked province) and 下钻 into 城市 (the chart regroups by
// city within the province, the breadcrumb goes back).
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { inject } from "vitest";
import { describeBrowser, launchBrowser, login, newPage, shot } from "./lib/browser";
import { must, signIn } from "./lib/calls";
import { barsOf, widgetRows, salesSource } from "./lib/screen";

const run = Date.now().toString(36).slice(-4);
const FILE = `e2e_dsales_${run}`;
const BAR = "#ff00aa";
const P = "/api/datav/screen";

const bars = (page: Page, widgetId: string) => barsOf(page, widgetId, BAR);
const rowsOf = widgetRows;

describeBrowser("大屏数据集：图表、筛选、联动与自由下钻", () => {
  let browser: Browser;
  let dev: string;
  let datasetId: number;
  beforeAll(async () => {
    const dsId = await salesSource(FILE);
    dev = await signIn("developer", inject("demoPassword"));
    // the designer's own calls: fields proposed from the catalogue, relabelled; no SQL anywhere
    const definition = { table: { schema: null, table: "sales" } };
    const proposed = await must("/api/dataset/fields", { kind: "table", dsId, definition }, dev);
    const labels: Record<string, string> = { province: "省份", city: "城市", sold_on: "日期", amount: "销售额" };
    const fields = proposed.map((f: { name: string }) => ({ ...f, label: labels[f.name] ?? f.name }));
    datasetId = await must("/api/dataset/info/save", { name: `销售${run}`, kind: "table", dsId, definition, fields, cacheTtl: 0 }, dev);
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("a filter on 省份 filters the chart and the table; a bar click links or drills into 城市, chosen at the click", async () => {
    const info = await must(`/api/dataset/info/get?id=${datasetId}`, undefined, dev);
    const dataset = { datasetId, datasetName: info.name, fields: info.fields.map((f: Record<string, unknown>) => ({ name: f.name, label: f.label, type: f.type, role: f.role })) };
    const saved = await must(`${P}/info/save`, { pageName: `数据集大屏${run}`, width: 1200, height: 800 }, dev);
    const pageId = String(typeof saved === "object" && saved ? saved.id : saved);
    const specs = [
      {
        widgetName: "barChart",
        viewProps: { left: 20, top: 80, width: 560, height: 400, barColor: BAR, barWidth: 60, showLabel: false },
        mapping: [
          { id: "1", prop: "x", label: "X 轴", slot: "dimension", datasetField: "province", field: "province" },
          { id: "2", prop: "y", label: "Y 轴", slot: "measure", datasetField: "amount", agg: "sum", field: "amount_sum" },
        ],
        dataset: { ...dataset, sort: [{ field: "amount", agg: "sum", dir: "desc" }] },
      },
      {
        widgetName: "pagedTable",
        viewProps: { left: 620, top: 80, width: 560, height: 400, pageSize: 10, showIndex: false },
        mapping: [
          { id: "1", prop: "p", label: "省份", slot: "column", datasetField: "province", field: "province" },
          { id: "2", prop: "c", label: "城市", slot: "column", datasetField: "city", field: "city" },
          { id: "3", prop: "a", label: "销售额", slot: "column", datasetField: "amount", field: "amount" },
        ],
        dataset,
      },
      {
        widgetName: "filterSelect",
        viewProps: { left: 20, top: 20, width: 260, height: 40, label: "省份", placeholder: "全部省份" },
        mapping: [
          { id: "1", prop: "label", label: "显示", slot: "dimension", datasetField: "province", field: "province" },
          { id: "2", prop: "value", label: "值", slot: "dimension", datasetField: "province", field: "province" },
        ],
        dataset,
      },
    ];
    const ids: string[] = [];
    for (const s of specs) ids.push((await must(`${P}/widget/add`, { pageId, widgetName: s.widgetName }, dev)).id);
    const list = await must(`${P}/widget/select?pageId=${pageId}`, undefined, dev);
    specs.forEach((s, i) => {
      const w = list.find((x: { id: string }) => x.id === ids[i]);
      w.widgetProps.viewProps = { ...w.widgetProps.viewProps, ...s.viewProps };
      w.widgetProps.datasourceProps = { datasourceType: "DATASET", dataMapping: s.mapping, dataConfig: { dataset: s.dataset } };
    });
    await must(`${P}/widget/update`, { pageId, widgets: list }, dev);
    const [chart, table, filter] = ids;

    const page = await newPage(browser);
    await login(page, inject("baseURL"), "developer", inject("demoPassword"));
    // every dataset answer of the screen's first load comes in one call
    let queryCalls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/dataset/query")) queryCalls++;
    });
    await page.goto(`${inject("baseURL")}/datav/screen/preview?pageId=${pageId}`);
    await expect.poll(() => rowsOf(page, table), { timeout: 30_000 }).toHaveLength(6);
    await expect.poll(async () => (await bars(page, chart)).length, { timeout: 15_000 }).toBe(3);
    expect(queryCalls).toBe(1);
    await shot(page, "dataset-screen");

    // the dropdown's options are the dataset's provinces; 浙江 filters the chart and the table
    await page.locator(`[data-widget-id="${filter}"] .ant-select`).click();
    await page.locator(".ant-select-item-option", { hasText: "浙江" }).click();
    await expect.poll(() => rowsOf(page, table)).toHaveLength(3);
    expect((await rowsOf(page, table)).every((r) => r.startsWith("浙江"))).toBe(true);
    await expect.poll(async () => (await bars(page, chart)).length).toBe(1);
    // cleared: everything back
    await page.locator(`[data-widget-id="${filter}"] .ant-select-clear`).click({ force: true });
    await expect.poll(() => rowsOf(page, table)).toHaveLength(6);
    await expect.poll(async () => (await bars(page, chart)).length).toBe(3);

    // a click on the first (largest) bar: 浙江; 联动 filters the table
    const clickBar = async (i: number) => {
      const b = (await bars(page, chart))[i];
      await page.mouse.click(b.x, b.y - 20);
      await page.getByTestId("dataset-click-menu").waitFor({ timeout: 10_000 });
    };
    await clickBar(0);
    expect(await page.getByTestId("dataset-click-menu").textContent()).toContain("省份：浙江");
    await page.getByRole("menuitem", { name: "联动其他图表" }).click();
    await expect.poll(() => rowsOf(page, table)).toHaveLength(3);
    // the chart itself is not filtered by its own click
    expect((await bars(page, chart)).length).toBe(3);
    await page.locator(`[data-widget-id="${chart}"]`).getByRole("button", { name: "清除联动：省份" }).click();
    await expect.poll(() => rowsOf(page, table)).toHaveLength(6);

    // 下钻 into 城市, chosen at the click: the chart shows 浙江's two cities; the breadcrumb goes back
    await clickBar(0);
    await page.getByRole("menuitem", { name: "城市" }).click();
    await expect.poll(() => page.locator(`[data-widget-id="${chart}"]`).getByTestId("drill-crumbs").textContent()).toContain("省份：浙江");
    await expect.poll(async () => (await bars(page, chart)).length).toBe(2);
    await shot(page, "dataset-drill");
    // 导出当前数据: what the drilled chart shows (浙江's cities), as an Excel file
    await clickBar(0);
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "导出当前数据（Excel）" }).click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    const cells = book.worksheets[0].getSheetValues().slice(2).map((r) => (r as unknown[])[1]);
    expect(cells.sort()).toEqual(["宁波", "杭州"]);
    await page.locator(`[data-widget-id="${chart}"]`).getByTestId("drill-crumbs").getByRole("button", { name: "全部" }).click();
    await expect.poll(async () => (await bars(page, chart)).length).toBe(3);
    await page.close();
  });
});
