// Excel / CSV datasets clicked through (issue 35 §1 and "How it will be checked"), as the developer, no SQL typed: an
// Excel file with two sheets chosen in the dataset editor, its sheets read back with the types found, two datasets
// made; the first then appended with a CSV whose columns come in another order (checked first, then confirmed); a
// bar chart on it shows the appended province. At 1600 px and 390 px.
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { inject } from "vitest";
import { describeBrowser, launchBrowser, login, newPage, shot } from "./lib/browser";
import { must, signIn, toast } from "./lib/calls";
import { barsOf } from "./lib/screen";

const run = Date.now().toString(36).slice(-4);
const NAME = `上传销售${run}`;
const BAR = "#00aaff";

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sales = book.addWorksheet("销售");
  sales.addRow(["省份", "城市", "销售额"]);
  sales.addRow(["浙江", "杭州", 100]);
  sales.addRow(["浙江", "宁波", 60]);
  sales.addRow(["江苏", "南京", 90]);
  const goals = book.addWorksheet("目标");
  goals.addRow(["省份", "目标"]);
  goals.addRow(["浙江", 200]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describeBrowser("数据集：Excel / CSV 文件", () => {
  let browser: Browser;
  let page: Page;
  let dev: string;
  beforeAll(async () => {
    dev = await signIn("developer", inject("demoPassword"));
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: 1600, height: 1000 } });
    await login(page, inject("baseURL"), "developer", inject("demoPassword"));
  });
  afterAll(() => browser?.close());

  it("uploads a two-sheet workbook as two datasets, appends a CSV with its columns in another order, and charts it", async () => {
    const base = inject("baseURL");
    await page.goto(`${base}/datav/dataset/edit`);
    await page.locator(".ant-radio-button-wrapper", { hasText: "Excel / CSV" }).click();
    await page.getByRole("textbox", { name: "数据集名称" }).fill(NAME);
    await page.locator('[data-testid="file-create"] input[type=file]').setInputFiles({ name: "销售.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: await workbook() });
    // both sheets read back: rows, columns and the types the server found
    await expect.poll(() => page.locator('[data-testid="sheet-销售"]').textContent(), { timeout: 15_000 }).toContain("3 行，3 列");
    expect(await page.locator('[data-testid="sheet-销售"]').textContent()).toContain("数字");
    expect(await page.locator('[data-testid="sheet-目标"]').textContent()).toContain("1 行，2 列");
    await shot(page, "dataset-file-sheets");
    await page.getByRole("button", { name: /创建数据集（2 个）/ }).click();
    await toast(page, /已创建 2 个数据集/);
    await page.waitForURL(/\/datav\/dataset(\?|$)/);
    await expect.poll(async () => (await page.locator(".ant-table-row").allTextContents()).join("|"), { timeout: 10_000 }).toContain(`${NAME}-销售`);

    const list = await must("/api/dataset/search", { pageNum: 1, pageSize: 10, search: NAME }, dev);
    const salesId = list.records.find((r: { name: string }) => r.name === `${NAME}-销售`).id as number;

    // 追加数据: the CSV's columns in another order, checked first, then confirmed
    await page.goto(`${base}/datav/dataset/edit?id=${salesId}`);
    await expect.poll(() => page.locator('[data-testid="file-info"]').textContent(), { timeout: 10_000 }).toContain("3");
    await page.getByRole("button", { name: /追加数据/ }).click();
    const dialog = page.locator(".ant-modal").filter({ hasText: "追加数据" });
    await dialog.locator("input[type=file]").setInputFiles({ name: "追加.csv", mimeType: "text/csv", buffer: Buffer.from("销售额,省份,城市\n75,广东,广州\n25,广东,深圳\n") });
    await expect.poll(() => dialog.locator('[data-testid="file-summary"]').textContent(), { timeout: 10_000 }).toContain("将追加 2 行");
    await shot(page, "dataset-file-append");
    await dialog.getByTestId("file-commit").click();
    await toast(page, /已追加 2 行/);
    await expect.poll(() => page.locator('[data-testid="file-info"]').textContent()).toContain("5");

    // a bar chart of 销售额 by 省份 on the file dataset: three provinces now
    const info = await must(`/api/dataset/info/get?id=${salesId}`, undefined, dev);
    const f = Object.fromEntries(info.fields.map((x: { label: string; name: string }) => [x.label, x.name]));
    const saved = await must("/api/datav/screen/info/save", { pageName: `文件大屏${run}`, width: 1200, height: 800 }, dev);
    const pageId = String(typeof saved === "object" && saved ? saved.id : saved);
    const id = (await must("/api/datav/screen/widget/add", { pageId, widgetName: "barChart" }, dev)).id;
    const widgets = await must(`/api/datav/screen/widget/select?pageId=${pageId}`, undefined, dev);
    const w = widgets.find((x: { id: string }) => x.id === id);
    w.widgetProps.viewProps = { ...w.widgetProps.viewProps, left: 20, top: 20, width: 600, height: 400, barColor: BAR, showLabel: false };
    w.widgetProps.datasourceProps = {
      datasourceType: "DATASET",
      dataMapping: [
        { id: "1", prop: "x", label: "X 轴", slot: "dimension", datasetField: f["省份"], field: f["省份"] },
        { id: "2", prop: "y", label: "Y 轴", slot: "measure", datasetField: f["销售额"], agg: "sum", field: `${f["销售额"]}_sum` },
      ],
      dataConfig: { dataset: { datasetId: salesId, datasetName: info.name, fields: info.fields } },
    };
    await must("/api/datav/screen/widget/update", { pageId, widgets }, dev);
    await page.goto(`${base}/datav/screen/preview?pageId=${pageId}`);
    await expect.poll(async () => (await barsOf(page, id, BAR)).length, { timeout: 20_000 }).toBe(3);
    await shot(page, "dataset-file-chart");

    // narrow: the editor of a file dataset stays usable at 390 px
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/datav/dataset/edit?id=${salesId}`);
    await expect.poll(() => page.locator('[data-testid="file-info"]').textContent(), { timeout: 10_000 }).toContain("5");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, "dataset-file-narrow");
  });
});
