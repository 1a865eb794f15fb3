// action=import (schemas/meta/page.schema.json): a file is chosen and read as text, the page's `check` call says
// what importing it would do item by item (new, a conflict to settle, refused with its reason), the user picks
// how to settle each item whose status offers choices, and `api` imports everything at once. Nothing is written
// before 导入; a refused import names its reason and leaves the dialog open.
import { useMemo, useState } from "react";
import {
  Alert,
  App,
  Button,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from "antd";
import { InboxOutlined } from "@ant-design/icons";
import type { ActionDecl, Row } from "./types";
import { useCrudServices } from "./services";
import { parseCall } from "./template";
import { actionLabel } from "./actions";

type ImportDecl = NonNullable<ActionDecl["import"]>;

interface Props {
  action: ActionDecl;
  onDone: () => void;
  onClose: () => void;
}

export function ImportDialog({ action, onDone, onClose }: Props) {
  const decl = action.import as ImportDecl;
  const services = useCrudServices();
  const { message } = App.useApp();
  const statusField = decl.statusField ?? "status";
  const reasonField = decl.reasonField ?? "reason";
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [items, setItems] = useState<Row[] | null>(null);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<"check" | "import" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const maxBytes = (decl.maxSizeMb ?? 10) * 1024 * 1024;

  const statusOf = (r: Row) => decl.statuses?.[String(r[statusField])];
  const keyOf = (r: Row) => String(r[decl.keyField]);
  const undecided = (items ?? []).filter(
    (r) => statusOf(r)?.choices && !choices[keyOf(r)],
  );

  const check = async (name: string, text: string) => {
    setFile({ name, text });
    setItems(null);
    setChoices({});
    setProblem(null);
    setBusy("check");
    try {
      const { method, path } = parseCall(decl.check, {});
      const answer = await services.request<{ items: Row[] }>(method, path, {
        body: { file: text },
      });
      setItems(Array.isArray(answer?.items) ? answer.items : []);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    if (!file || !items) return;
    if (undecided.length)
      return setProblem(`请为 ${undecided.length} 项选择处理方式`);
    const decisions: Record<string, string> = {};
    for (const r of items) {
      const st = statusOf(r);
      const chosen = choices[keyOf(r)] ?? st?.auto;
      if (chosen) decisions[keyOf(r)] = chosen;
    }
    setBusy("import");
    setProblem(null);
    try {
      const { method, path } = parseCall(decl.api, {});
      const body = { file: file.text, decisions };
      // the server's own words on what was imported, where the services can give them
      const said = services.requestAnswer
        ? (await services.requestAnswer(method, path, { body })).msg
        : (await services.request(method, path, { body }), "");
      message.success(said || action.success || "导入成功");
      onDone();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const columns = useMemo(
    () => [
      ...decl.columns.map((c) => ({
        title: c.title,
        dataIndex: c.field,
        width: c.width,
        ellipsis: true,
      })),
      {
        title: "状态",
        dataIndex: statusField,
        width: 220,
        render: (_: unknown, r: Row) => {
          const st = statusOf(r);
          const reason = r[reasonField];
          return (
            <Space direction="vertical" size={4} style={{ width: "100%" }}>
              <Tag color={st?.color}>{st?.label ?? String(r[statusField])}</Tag>
              {typeof reason === "string" && reason && (
                <Typography.Text type="danger">{reason}</Typography.Text>
              )}
              {st?.choices && (
                <Select
                  size="small"
                  aria-label={`${keyOf(r)} 的处理方式`}
                  placeholder="请选择处理方式"
                  style={{ width: "100%" }}
                  value={choices[keyOf(r)]}
                  options={st.choices}
                  onChange={(v: string) =>
                    setChoices((c) => ({ ...c, [keyOf(r)]: v }))
                  }
                />
              )}
            </Space>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [decl, choices],
  );

  return (
    <Modal
      open
      title={actionLabel(action)}
      width={820}
      onCancel={onClose}
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={busy === "import"}
          disabled={!items?.length || busy !== null}
          onClick={() => void commit()}
        >
          导入
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        {decl.hint && <Alert type="info" showIcon message={decl.hint} />}
        <Upload.Dragger
          accept={decl.accept}
          multiple={false}
          showUploadList={false}
          beforeUpload={(f) => {
            if (f.size > maxBytes) {
              setProblem(`文件不能超过 ${decl.maxSizeMb ?? 10} MB`);
              return Upload.LIST_IGNORE;
            }
            void f.text().then((text) => check(f.name, text));
            return Upload.LIST_IGNORE;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">
            {file
              ? `已选择：${file.name}（点击或拖入以更换）`
              : "点击或拖入文件"}
          </p>
        </Upload.Dragger>
        {problem && (
          <Alert
            type="error"
            showIcon
            message={problem}
            data-testid="import-problem"
          />
        )}
        {(busy === "check" || items) && (
          <Table
            data-testid="import-preview"
            size="small"
            rowKey={(r) => keyOf(r)}
            loading={busy === "check"}
            dataSource={items ?? []}
            columns={columns}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            scroll={{ x: 600 }}
            locale={{ emptyText: "文件中没有可导入的项" }}
          />
        )}
      </Space>
    </Modal>
  );
}
