// Clicks on a screen (issue 23 §3–§5, "How it will be checked"), in Chromium over published APIs on a SQLite file:
//  - the designer's 交互 tab shows a chart's declared clicks (the linkage's variable among the canvas's variables);
//    a javascript: address is refused at save in Chinese, an https one is saved;
//  - a bar chart whose click sets the variable `province` (linkage) and drills its own API down province → city →
//    district; a table bound to `province` filters and shows 筛选：省份=浙江 ×; the chart goes down two levels and
//    back up with its breadcrumb while the table stays filtered; × clears the filter;
//  - a click on a table row jumps to a detail screen with the clicked district as its URL parameter, which becomes
//    that screen's variable and filters its table;
//  - a click on a province of the China map, or on a province's node of a sankey, filters a table bound to the
//    same variable.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { inject } from "vitest";
import {
  describeBrowser,
  launchBrowser,
  login,
  newPage,
  shot,
} from "./lib/browser";
import { must, signIn, toast } from "./lib/calls";
import { barsOf, widgetRows } from "./lib/screen";

const run = Date.now().toString(36).slice(-4);
const AREAS = `e2e_areas_${run}`;
const ROWS = `e2e_area_rows_${run}`;
const BAR = "#ff00aa";
const P = "/api/datav/screen";

/** Two published APIs over one SQLite file: amounts by level (drill) and the rows (table). */
async function publishApis(): Promise<void> {
  const dir = join(inject("dataDir"), "sqlite");
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, `${AREAS}.db`));
  db.exec(`CREATE TABLE sales (province TEXT, city TEXT, district TEXT, amount INTEGER);
    INSERT INTO sales VALUES ('浙江','杭州','西湖区',100),('浙江','杭州','滨江区',80),('浙江','宁波','海曙区',60),
      ('江苏','南京','玄武区',90),('江苏','苏州','姑苏区',70);`);
  db.close();
  const admin = await signIn("admin", inject("adminPassword"));
  await must(
    "/api/gemini/datasource/info/save",
    { dsName: AREAS, dbType: "sqlite", dbName: `${AREAS}.db` },
    admin,
  );
  const dev = await signIn("developer", inject("demoPassword"));
  const approver = await signIn("devapprover", inject("demoPassword"));
  const group = await must(
    "/api/gemini/api/group/save",
    { parentId: 0, name: `联动${run}` },
    dev,
  );
  const groupId = typeof group === "number" ? group : group.id;
  const publish = async (apiName: string, params: string[], script: string) => {
    const id = await must(
      "/api/gemini/api/design/info/save",
      {
        groupId,
        apiName,
        apiComment: apiName,
        reqParamList: params.map((paramName) => ({
          paramName,
          paramType: "string",
        })),
      },
      dev,
    );
    await must(
      "/api/gemini/api/config/save",
      { apiId: id, dsName: AREAS, script },
      dev,
    );
    await must("/api/gemini/api/design/info/submit", { id }, dev);
    await must(
      "/api/gemini/api/approve/resolveAndOnline",
      { id, approveResult: "e2e" },
      approver,
    );
  };
  // the level follows the parameters given: provinces, a province's cities, a city's districts
  await publish(
    AREAS,
    ["province", "city"],
    `select name, province, sum(amount) as value from (
       select case when :city is not null then district when :province is not null then city else province end as name, province, amount
       from sales where (:province is null or province = :province) and (:city is null or city = :city)
     ) t group by name, province order by name`,
  );
  await publish(
    ROWS,
    ["province", "district"],
    "select province, city, district, amount from sales where (:province is null or province = :province) and (:district is null or district = :district) order by province, city, district",
  );
}

interface Spec {
  widgetName: string;
  viewProps: Record<string, unknown>;
  api: string;
  mapping: Array<[string, string, string]>;
  reqParams?: Record<string, unknown>;
  interactionProps?: unknown;
}

/** A screen with variables and widgets reading published APIs, made through the designer's own calls. */
async function makeScreen(
  token: string,
  pageName: string,
  variables: unknown[],
  specs: Spec[],
): Promise<{ id: string; widgetIds: string[] }> {
  const saved = await must(
    `${P}/info/save`,
    { pageName, width: 1200, height: 800, variables },
    token,
  );
  const id = String(typeof saved === "object" && saved ? saved.id : saved);
  const widgetIds: string[] = [];
  for (const s of specs)
    widgetIds.push(
      (
        await must(
          `${P}/widget/add`,
          { pageId: id, widgetName: s.widgetName },
          token,
        )
      ).id,
    );
  const list = await must(`${P}/widget/select?pageId=${id}`, undefined, token);
  specs.forEach((s, i) => {
    const w = list.find((x: { id: string }) => x.id === widgetIds[i]);
    w.widgetProps.viewProps = { ...w.widgetProps.viewProps, ...s.viewProps };
    w.widgetProps.datasourceProps = {
      datasourceType: "API",
      dataMapping: s.mapping.map(([prop, label, field], n) => ({
        id: String(n + 1),
        prop,
        label,
        field,
      })),
      dataConfig: {
        datasource: s.api,
        datasourceLabel: s.api,
        reqParams: s.reqParams ?? {},
      },
    };
    if (s.interactionProps) w.widgetProps.interactionProps = s.interactionProps;
  });
  await must(`${P}/widget/update`, { pageId: id, widgets: list }, token);
  return { id, widgetIds };
}

/** The bars of a chart as drawn, left to right, in page pixels. */
const bars = (page: Page, widgetId: string) => barsOf(page, widgetId, BAR);

/**
 * A sankey's first node in its first column, in page pixels: the top run of opaque pixels of `hex` at the
 * leftmost x they reach (links are drawn translucent, nodes opaque).
 */
function firstNode(page: Page, widgetId: string, hex: string): Promise<{ x: number; y: number } | null> {
  return page.locator(`[data-widget-id="${widgetId}"] canvas`).first().evaluate((canvas: HTMLCanvasElement, hex: string) => {
    const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const { data, width, height } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    const on = (x: number, y: number) => {
      const i = (y * width + x) * 4;
      return data[i + 3] > 250 && want.every((c, k) => Math.abs(data[i + k] - c) < 10);
    };
    let left = -1;
    for (let x = 0; x < width && left < 0; x++) {
      for (let y = 0; y < height; y++) {
        if (!on(x, y)) continue;
        left = x;
        break;
      }
    }
    if (left < 0) return null;
    const x = left + 3;
    let top = -1;
    let bottom = -1;
    for (let y = 0; y < height; y++) {
      if (on(x, y)) {
        if (top < 0) top = y;
        bottom = y;
      } else if (top >= 0) break;
    }
    if (top < 0 || bottom - top < 5) return null;
    const r = canvas.getBoundingClientRect();
    return { x: r.left + x * (r.width / width), y: r.top + ((top + bottom) / 2) * (r.height / height) };
  }, hex);
}

const rowsOf = widgetRows;

describeBrowser("大屏交互：点击联动、下钻、跳转", () => {
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    await publishApis();
    browser = await launchBrowser();
    token = await signIn("developer", inject("demoPassword"));
  });
  afterAll(() => browser?.close());

  it("a bar click filters the bound table, the chart drills down two levels and back while the filter stays, a row click opens the detail screen", async () => {
    const detail = await makeScreen(
      token,
      `e2e明细${run}`,
      [{ name: "district", title: "区县", type: "string" }],
      [
        {
          widgetName: "pagedTable",
          viewProps: {
            left: 20,
            top: 20,
            width: 800,
            height: 400,
            showIndex: false,
          },
          api: ROWS,
          mapping: [
            ["c", "区县", "district"],
            ["a", "金额", "amount"],
          ],
          reqParams: { district: "{{district}}" },
        },
      ],
    );
    const main = await makeScreen(
      token,
      `e2e联动${run}`,
      [{ name: "province", title: "省份", type: "string" }],
      [
        {
          widgetName: "barChart",
          viewProps: {
            left: 20,
            top: 20,
            width: 560,
            height: 400,
            barColor: BAR,
            barWidth: 60,
            showLabel: false,
          },
          api: AREAS,
          mapping: [
            ["x", "名称", "name"],
            ["y", "金额", "value"],
          ],
          interactionProps: {
            linkage: [{ field: "province", variable: "province" }],
            drill: [
              { title: "省份", field: "name", param: "province" },
              { title: "城市", field: "name", param: "city" },
            ],
          },
        },
        {
          widgetName: "pagedTable",
          viewProps: {
            left: 620,
            top: 20,
            width: 560,
            height: 400,
            pageSize: 8,
            showIndex: false,
          },
          api: ROWS,
          mapping: [
            ["p", "省份", "province"],
            ["c", "城市", "city"],
            ["d", "区县", "district"],
          ],
          reqParams: { province: "{{province}}" },
          interactionProps: {
            jump: {
              target: "screen",
              to: detail.id,
              newTab: false,
              params: [{ field: "district", param: "district" }],
            },
          },
        },
      ],
    );
    const [chart, table] = main.widgetIds;
    const page = await newPage(browser);
    await login(page, inject("baseURL"), "developer", inject("demoPassword"));
    await page.goto(
      `${inject("baseURL")}/datav/screen/preview?pageId=${main.id}`,
    );
    await expect
      .poll(() => rowsOf(page, table), { timeout: 30_000 })
      .toHaveLength(5);
    const drawn = async (n: number) => {
      await page.mouse.move(1, 1);
      await expect
        .poll(async () => (await bars(page, chart)).length, { timeout: 15_000 })
        .toBe(n);
      // the bars grow in: wait until they stand still
      let last = "";
      await expect
        .poll(
          async () => {
            const now = JSON.stringify(await bars(page, chart));
            const still = now === last;
            last = now;
            return still;
          },
          { timeout: 10_000, interval: 300 },
        )
        .toBe(true);
      return bars(page, chart);
    };
    const clickBar = async (n: number, i: number) => {
      const b = (await drawn(n))[i];
      await page.mouse.click(b.x, b.y);
    };
    // 江苏 | 浙江: click 浙江 → the table keeps 浙江's rows, tagged; the chart shows 浙江's cities
    await clickBar(2, 1);
    await expect
      .poll(() => rowsOf(page, table), { timeout: 15_000 })
      .toEqual(["浙江宁波海曙区", "浙江杭州滨江区", "浙江杭州西湖区"]);
    const tag = page
      .locator(`[data-widget-id="${table}"]`)
      .getByTestId("linked-filters");
    await expect.poll(() => tag.textContent()).toBe("筛选：省份=浙江×");
    const crumbs = page
      .locator(`[data-widget-id="${chart}"]`)
      .getByTestId("drill-crumbs");
    await expect.poll(() => crumbs.textContent()).toBe("全部 › 省份：浙江");
    // 宁波 | 杭州: click 杭州 → its districts; the filter stays on
    await clickBar(2, 1);
    await expect
      .poll(() => crumbs.textContent())
      .toBe("全部 › 省份：浙江 › 城市：杭州");
    await drawn(2);
    await shot(page, "interaction-drilled");
    expect(await tag.textContent()).toBe("筛选：省份=浙江×");
    expect(await rowsOf(page, table)).toHaveLength(3);
    // back up with the breadcrumb, one level, then to the top: the filter stays
    await crumbs.getByRole("button", { name: "省份：浙江" }).click();
    await expect.poll(() => crumbs.textContent()).toBe("全部 › 省份：浙江");
    await drawn(2);
    await crumbs.getByRole("button", { name: "全部" }).click();
    await expect.poll(() => crumbs.count()).toBe(0);
    await drawn(2);
    expect(await tag.textContent()).toBe("筛选：省份=浙江×");
    expect(await rowsOf(page, table)).toHaveLength(3);
    // × clears the filter: every row again
    await tag.getByRole("button", { name: "清除筛选：省份" }).click();
    await expect
      .poll(() => rowsOf(page, table), { timeout: 15_000 })
      .toHaveLength(5);
    expect(await tag.count()).toBe(0);

    // a row click opens the detail screen with the clicked district, which filters its table
    await page
      .locator(`[data-widget-id="${table}"] [role="row"]`, {
        hasText: "西湖区",
      })
      .click();
    await page.waitForURL((u) => u.searchParams.get("pageId") === detail.id);
    expect(new URL(page.url()).searchParams.get("district")).toBe("西湖区");
    await expect
      .poll(() => rowsOf(page, detail.widgetIds[0]), { timeout: 30_000 })
      .toEqual(["西湖区100"]);
    await shot(page, "interaction-jumped");
    await page.context().close();
  });

  it("a click on a province of the China map, or on a province's node of the sankey, filters the bound table", async () => {
    const HIGH = "#ff00aa";
    const screen = await makeScreen(
      token,
      `e2e地图${run}`,
      [{ name: "province", title: "省份", type: "string" }],
      [
        {
          widgetName: "chinaMap",
          // 浙江 (240) in the high colour, 江苏 (160) in the low one; no legend, no labels: the high colour is 浙江 alone
          viewProps: { left: 20, top: 20, width: 560, height: 460, highColor: HIGH, lowColor: "#00ff66", showVisualMap: false, showLabel: false },
          api: AREAS,
          mapping: [
            ["name", "省份", "name"],
            ["value", "金额", "value"],
          ],
          interactionProps: { linkage: [{ field: "province", variable: "province" }] },
        },
        {
          widgetName: "pagedTable",
          viewProps: { left: 620, top: 20, width: 560, height: 400, pageSize: 8, showIndex: false },
          api: ROWS,
          mapping: [
            ["p", "省份", "province"],
            ["d", "区县", "district"],
          ],
          reqParams: { province: "{{province}}" },
        },
        {
          widgetName: "sankeyChart",
          // provinces → cities, every node in the pink
          viewProps: { left: 620, top: 440, width: 560, height: 320, colors: [HIGH], showLabel: false },
          api: ROWS,
          mapping: [
            ["source", "省份", "province"],
            ["target", "城市", "city"],
            ["value", "金额", "amount"],
          ],
          interactionProps: { linkage: [{ field: "name", variable: "province" }] },
        },
      ],
    );
    const [map, table, flows] = screen.widgetIds;
    const page = await newPage(browser);
    await login(page, inject("baseURL"), "developer", inject("demoPassword"));
    await page.goto(`${inject("baseURL")}/datav/screen/preview?pageId=${screen.id}`);
    await expect.poll(() => rowsOf(page, table), { timeout: 30_000 }).toHaveLength(5);
    // 浙江 on the canvas: the middle of the pixels in the high colour (once drawn)
    const zhejiang = () =>
      page.locator(`[data-widget-id="${map}"] canvas`).first().evaluate((canvas: HTMLCanvasElement, hex: string) => {
        const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
        const { data, width, height } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
        let n = 0, sx = 0, sy = 0;
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            const i = (y * width + x) * 4;
            if (!want.every((c, k) => Math.abs(data[i + k] - c) < 10)) continue;
            n++;
            sx += x;
            sy += y;
          }
        if (n < 20) return null;
        const r = canvas.getBoundingClientRect();
        return { x: r.left + (sx / n) * (r.width / width), y: r.top + (sy / n) * (r.height / height) };
      }, HIGH);
    await expect.poll(zhejiang, { timeout: 15_000 }).not.toBeNull();
    const at = (await zhejiang())!;
    await page.mouse.click(at.x, at.y);
    await expect
      .poll(() => rowsOf(page, table), { timeout: 15_000 })
      .toEqual(["浙江海曙区", "浙江滨江区", "浙江西湖区"]);
    await expect.poll(() => page.locator(`[data-widget-id="${table}"]`).getByTestId("linked-filters").textContent()).toBe("筛选：省份=浙江×");
    await shot(page, "interaction-map");
    // the same filter from the sankey: × clears it; a click on a province's node (its first) sets it to that one
    await page.locator(`[data-widget-id="${table}"]`).getByRole("button", { name: "清除筛选：省份" }).click();
    await expect.poll(() => rowsOf(page, table), { timeout: 15_000 }).toHaveLength(5);
    await page.mouse.move(1, 1);
    await expect.poll(() => firstNode(page, flows, HIGH), { timeout: 15_000 }).not.toBeNull();
    const node = (await firstNode(page, flows, HIGH))!;
    await page.mouse.click(node.x, node.y);
    const tag = page.locator(`[data-widget-id="${table}"]`).getByTestId("linked-filters");
    await expect.poll(() => tag.textContent(), { timeout: 15_000 }).toMatch(/^筛选：省份=(浙江|江苏)×$/);
    const province = (await tag.textContent())!.includes("浙江") ? "浙江" : "江苏";
    await expect
      .poll(() => rowsOf(page, table), { timeout: 15_000 })
      .toEqual(province === "浙江" ? ["浙江海曙区", "浙江滨江区", "浙江西湖区"] : ["江苏玄武区", "江苏姑苏区"]);
    await page.context().close();
  });

  it("the designer's 交互 tab shows a chart's clicks; a javascript: jump is refused at save, an https one saved", async () => {
    const screen = await makeScreen(
      token,
      `e2e交互页签${run}`,
      [{ name: "province", title: "省份", type: "string" }],
      [
        {
          widgetName: "barChart",
          viewProps: { left: 20, top: 20, width: 560, height: 400 },
          api: AREAS,
          mapping: [
            ["x", "名称", "name"],
            ["y", "金额", "value"],
          ],
          interactionProps: {
            linkage: [{ field: "province", variable: "province" }],
            drill: [{ title: "省份", field: "name", param: "province" }],
          },
        },
      ],
    );
    const page = await newPage(browser);
    await login(page, inject("baseURL"), "developer", inject("demoPassword"));
    await page.goto(
      `${inject("baseURL")}/datav/screen/design?pageId=${screen.id}`,
    );
    const chart = page
      .getByTestId("canvas-stage")
      .locator(`[data-widget-id="${screen.widgetIds[0]}"]`);
    await chart.click();
    const right = page.getByTestId("designer-right");
    await right.getByRole("tab", { name: "交互" }).click();
    await right.getByText("点击联动").first().waitFor();
    await expect
      .poll(() => right.locator("#root_linkage_0_field").inputValue())
      .toBe("province");
    // the linkage's variable is chosen among the canvas's variables
    expect(
      await right
        .locator(".ant-select", {
          has: page.locator("#root_linkage_0_variable"),
        })
        .textContent(),
    ).toContain("省份（province）");
    expect(await right.locator("#root_drill_0_param").inputValue()).toBe(
      "province",
    );
    // the designer's canvas stays still: no click listeners there
    expect(
      await page
        .getByTestId("canvas-stage")
        .locator("[data-interactive]")
        .count(),
    ).toBe(0);
    await right
      .locator(".ant-select", { has: page.locator("#root_jump_target") })
      .click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option", {
        hasText: "网址",
      })
      .click();
    await right.locator("#root_jump_to").fill("javascript:alert(1)");
    await shot(page, "interaction-designer-tab");
    await page
      .getByRole("button", { name: /保\s?存/ })
      .first()
      .click();
    await toast(page, "跳转的网址只能是 http:// 或 https:// 开头的地址", {
      prefix: "interaction",
    });
    await right
      .locator("#root_jump_to")
      .fill("https://report.example.com/detail");
    await page
      .getByRole("button", { name: /保\s?存/ })
      .first()
      .click();
    await toast(page, "保存成功", { prefix: "interaction" });
    const saved = await must(
      `${P}/widget/select?pageId=${screen.id}`,
      undefined,
      token,
    );
    expect(saved[0].widgetProps.interactionProps.jump).toMatchObject({
      target: "url",
      to: "https://report.example.com/detail",
    });
    await page.context().close();
  });
});
