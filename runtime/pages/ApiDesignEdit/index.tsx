// API设计编辑 (ViewApiDesignEdit, spec part 2 "API design edit"): group, API name, Chinese name,
// description, designer, the fixed URL /open/api/{apiName}, request and response parameters, the version
// selector (a released version is shown read-only), Save / Submit / Back with unsaved-change tracking.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, Row, Select, Space, Spin, Switch, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../../core/session';
import { useBusy } from '../../core/busy';
import { usePermission } from '../../core/permission';
import { ParamTable, type ParamRow } from '../../editors';
import { apiCalls, GroupSelect, idParam, StatusTag, useDraft, useLeave, versionLabel, type ApiDesign, type VersionOption } from '../../apimgr';

const LIST = '/apimgr/design';
const API_NAME = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

interface Draft {
  groupId?: number;
  apiName: string;
  apiComment: string;
  apiDesc: string;
  isPublic: boolean;
  reqParamList: ParamRow[];
  respParamList: ParamRow[];
}

const EMPTY: Draft = { apiName: '', apiComment: '', apiDesc: '', isPublic: false, reqParamList: [], respParamList: [] };

const draftOf = (a: ApiDesign): Draft => ({
  groupId: a.groupId ?? undefined,
  apiName: a.apiName,
  apiComment: a.apiComment,
  apiDesc: a.apiDesc ?? '',
  isPublic: Boolean(a.isPublic),
  reqParamList: a.reqParamList,
  respParamList: a.respParamList,
});

/** The spec's messages for what is missing (§5), checked before any call. */
function missing(d: Draft): string | null {
  if (!d.groupId) return '请选择分组';
  if (!d.apiName.trim()) return '请输入接口名';
  if (!API_NAME.test(d.apiName.trim())) return '接口名只能包含字母、数字和下划线，且以字母开头（最多100个字符）';
  if (!d.apiComment.trim()) return '请输入接口名称（中文）';
  const bad = [...d.reqParamList, ...d.respParamList].find((p) => !p.paramName || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.paramName));
  if (bad) return bad.paramName ? `参数名不合法：${bad.paramName}` : '参数名不能为空';
  return null;
}

export default function ApiDesignEdit() {
  const { search } = useLocation();
  const id = idParam(search);
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const can = usePermission();
  const { user } = useSession();
  const [api, setApi] = useState<ApiDesign | null>(null);
  const [loading, setLoading] = useState(Boolean(id));
  const [busy, whileBusy] = useBusy<'save' | 'submit'>();
  const [versions, setVersions] = useState<VersionOption[]>([]);
  const [viewing, setViewing] = useState<{ version: number; draft: Draft } | null>(null);
  const { draft, setDraft, dirty, mark, load } = useDraft<Draft>(EMPTY);
  const leave = useLeave(LIST, dirty);
  const waiting = api?.apiStatus === 1;
  const readOnly = waiting || viewing !== null || !can([id ? 'api:design:edit' : 'api:design:add']);

  useEffect(() => {
    if (!id) {
      mark(EMPTY);
      return;
    }
    let live = true;
    setLoading(true);
    Promise.all([apiCalls.design(id), apiCalls.versions(id)])
      .then(([a, v]) => {
        if (!live) return;
        setApi(a);
        load(draftOf(a));
        setVersions(v ?? []);
      })
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // mark is stable per draft; loading runs per id only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const patch = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  const shown = viewing?.draft ?? draft;

  const pickVersion = async (v: number) => {
    if (!id || !api) return;
    if (v === 0) return setViewing(null);
    const cfg = await apiCalls.version(id, v);
    setViewing({ version: v, draft: { ...draft, apiComment: cfg.apiComment, isPublic: Boolean(cfg.isPublic), reqParamList: cfg.reqParamList, respParamList: cfg.respParamList } });
  };

  const save = async (): Promise<number | null> => {
    const why = missing(draft);
    if (why) {
      message.warning(why);
      return null;
    }
    const body = { id: id ?? null, ...draft, apiName: draft.apiName.trim(), apiComment: draft.apiComment.trim(), isPublic: draft.isPublic ? 1 : 0 };
    return whileBusy('save', async () => {
      const saved = await apiCalls.saveDesign(body);
      mark(draft);
      message.success('保存成功');
      const a = await apiCalls.design(saved);
      setApi(a);
      // a new design (or a saved approved one) continues on the edit route carrying its id
      if (!id) navigate(`/apimgr/design/edit?id=${saved}`, { replace: true });
      return saved;
    }).catch(() => null); // the request layer showed why
  };

  const submit = () =>
    modal.confirm({
      title: '提示',
      content: '确定要提交吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        const target = dirty || !id ? await save() : id;
        if (!target) return;
        try {
          await whileBusy('submit', () => apiCalls.submit(target));
          message.success('提交成功');
          leave({ force: true });
        } catch {
          /* shown by the request layer */
        }
      },
    });

  const versionOptions = useMemo(() => [{ value: 0, label: '当前设计' }, ...versions.map((v) => ({ value: v.value, label: `${v.label}（${v.approveUser} 审批）` }))], [versions]);
  const designer = api ? `${api.designUserName ?? ''}(${api.designUser})` : `${user?.nickName ?? ''}(${user?.username ?? ''})`;

  return (
    <Spin spinning={loading}>
      <Card
        title={
          <Space>
            <span>{id ? '编辑API' : '新增API'}</span>
            {api && <StatusTag api={api} />}
            {api && <Typography.Text type="secondary">最新版本 {versionLabel(api.latestApiVersion)}</Typography.Text>}
            {dirty && <Typography.Text type="warning">（未保存）</Typography.Text>}
          </Space>
        }
        extra={
          <Space>
            {id && (
              <Select aria-label="版本" style={{ width: 200 }} value={viewing?.version ?? 0} options={versionOptions} onChange={(v) => void pickVersion(Number(v))} />
            )}
            <Button type="primary" loading={busy === 'save'} disabled={readOnly} onClick={() => void save()}>
              保存
            </Button>
            {can(['api:design:submit']) && (
              <Button loading={busy === 'submit'} disabled={readOnly} onClick={submit}>
                提交
              </Button>
            )}
            <Button onClick={() => leave()}>返回</Button>
          </Space>
        }
      >
        {waiting && <Alert style={{ marginBottom: 16 }} type="warning" showIcon message="接口待审批中，不能修改" />}
        {viewing && <Alert style={{ marginBottom: 16 }} type="info" showIcon message={`正在查看已发布版本 V${viewing.version}（只读）；选择“当前设计”继续编辑`} />}
        {api?.apiStatus === 3 && api.approveResult && <Alert style={{ marginBottom: 16 }} type="error" showIcon message={`驳回意见：${api.approveResult}`} />}
        <Form layout="vertical" component="div" disabled={readOnly}>
          <Row gutter={24}>
            <Col span={12}>
              <Form.Item label="分组" required>
                <GroupSelect value={shown.groupId} onChange={(groupId) => patch({ groupId })} disabled={readOnly} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="设计人">
                <Input value={designer} disabled aria-label="设计人" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="API名称" required extra={api?.latestApiVersion != null ? '已有发布版本，接口名不能再修改' : '字母开头，只含字母、数字和下划线'}>
                <Input aria-label="API名称" placeholder="请输入接口名" maxLength={100} value={shown.apiName} disabled={readOnly || api?.latestApiVersion != null} onChange={(e) => patch({ apiName: e.target.value })} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="中文名称" required>
                <Input aria-label="中文名称" placeholder="请输入接口名称（中文）" maxLength={100} value={shown.apiComment} onChange={(e) => patch({ apiComment: e.target.value })} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="API地址">
                <Typography.Text code data-testid="api-url">
                  /open/api/{shown.apiName.trim() || '{apiName}'}
                </Typography.Text>
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="公开访问" extra="公开的 API 上线后任何人无需 API Key 即可调用，审批人会看到此标记">
                <Switch aria-label="公开访问" checked={shown.isPublic} onChange={(isPublic) => patch({ isPublic })} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item label="描述">
                <Input.TextArea aria-label="描述" rows={3} maxLength={255} showCount value={shown.apiDesc} onChange={(e) => patch({ apiDesc: e.target.value })} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item label="请求参数">
                <ParamTable value={shown.reqParamList} onChange={(reqParamList) => patch({ reqParamList })} readOnly={readOnly} withComment withRequired withSecret />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item label="响应参数">
                <ParamTable value={shown.respParamList} onChange={(respParamList) => patch({ respParamList })} readOnly={readOnly} withComment />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Card>
    </Spin>
  );
}
