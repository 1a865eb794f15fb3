// The form controls: each kind's rules and messages (the server answers the same words), each kind drawn
// disabled on the designer's canvas, and each kind inside a running Formily form: an empty required field
// is refused with its message, a good value reaches the submit as { field: value }.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createWidget, preloadWidgetKinds, widgetNames } from '../registry';
import { WidgetView } from '../WidgetView';
import { FormRunProvider } from './context';
import { decimalsOf, validateValue } from './rules';
import { widgetDeclarations } from '../declarations';
import { CUSTOM_PATTERN, PATTERN_PRESETS } from '../../common/fields';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(widgetNames.filter((n) => n.startsWith('form'))), 60_000);

const MOBILE = '^1[3-9]\\d{9}$';
const FIELD_KINDS = ['formInput', 'formTextarea', 'formNumber', 'formSelect', 'formRadio', 'formCheckbox', 'formSwitch', 'formDate', 'formDateRange', 'formImage'];

describe('rules and messages per kind', () => {
  it('single-line text: required, length and the mobile / email / national-ID presets with own or default messages', () => {
    const p = { label: '手机号码', required: true, maxLength: 100, patternPreset: MOBILE };
    expect(validateValue('formInput', p, '')).toBe('请输入手机号码');
    expect(validateValue('formInput', { ...p, requiredMessage: '手机号必填' }, undefined)).toBe('手机号必填');
    expect(validateValue('formInput', p, '12345')).toBe('手机号码格式不正确');
    expect(validateValue('formInput', { ...p, patternMessage: '请输入正确的手机号码' }, '23800000000')).toBe('请输入正确的手机号码');
    expect(validateValue('formInput', p, '13800000000')).toBeUndefined();
    expect(validateValue('formInput', { label: '邮箱', patternPreset: '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$' }, 'a@b')).toBe('邮箱格式不正确');
    expect(validateValue('formInput', { label: '身份证', patternPreset: '^(\\d{15}|\\d{17}[\\dXx])$' }, '11010519491231002X')).toBeUndefined();
    expect(validateValue('formInput', { label: '编码', patternPreset: 'custom', customPattern: '^[A-Z]{3}$' }, 'abc')).toBe('编码格式不正确');
    expect(validateValue('formInput', { label: '名称', minLength: 2, maxLength: 4 }, '一')).toBe('名称长度须在2到4个字符之间');
    // characters, not UTF-16 units
    expect(validateValue('formInput', { label: '名称', maxLength: 2 }, '😀😀')).toBeUndefined();
  });

  it('multi-line text: length with its own message', () => {
    expect(validateValue('formTextarea', { label: '意见', minLength: 5, maxLength: 500 }, '太短')).toBe('意见长度须在5到500个字符之间');
    expect(validateValue('formTextarea', { label: '意见', minLength: 5, lengthMessage: '至少写五个字' }, '太短')).toBe('至少写五个字');
  });

  it('number: type, range, one-sided bounds, precision', () => {
    const p = { label: '年龄', minimum: 1, maximum: 120, precision: 0 };
    expect(validateValue('formNumber', p, 200)).toBe('年龄须在1到120之间');
    expect(validateValue('formNumber', { ...p, maximum: null }, 0)).toBe('年龄不能小于1');
    expect(validateValue('formNumber', { ...p, minimum: null }, 121)).toBe('年龄不能大于120');
    expect(validateValue('formNumber', p, 1.5)).toBe('年龄最多保留0位小数');
    expect(validateValue('formNumber', { ...p, precision: 2 }, 1.25)).toBeUndefined();
    expect(validateValue('formNumber', p, 'x')).toBe('年龄类型错误');
    // an exponent counts as decimals, as on the server
    expect(decimalsOf(1e-7)).toBe(7);
    expect(validateValue('formNumber', { label: '值', precision: 2 }, 1e-7)).toBe('值最多保留2位小数');
  });

  it('choices: 请选择 for required, item counts for checkboxes', () => {
    expect(validateValue('formSelect', { label: '环境', required: true }, '')).toBe('请选择环境');
    expect(validateValue('formRadio', { label: '同意', required: true }, undefined)).toBe('请选择同意');
    expect(validateValue('formCheckbox', { label: '兴趣', required: true }, [])).toBe('请选择兴趣');
    const options = [{ label: '甲', value: 'a' }, { label: '乙', value: 'b' }];
    expect(validateValue('formCheckbox', { label: '兴趣', minItems: 2, options } as never, ['a'])).toBe('兴趣至少选择2项');
    expect(validateValue('formCheckbox', { label: '兴趣', maxItems: 1, options } as never, ['a', 'b'])).toBe('兴趣最多选择1项');
    // a value outside the options is refused here too, as the server refuses it (a default left from old options)
    expect(validateValue('formSelect', { label: '环境', options } as never, 'c')).toBe('环境的取值不在选项中');
    expect(validateValue('formSelect', { label: '环境', dict: 'ENV_TYPE' } as never, 'prod')).toBeUndefined();
  });

  it('switch is never "missing"; dates in order; images at most maxCount', () => {
    expect(validateValue('formSwitch', { label: '订阅', required: true }, false)).toBeUndefined();
    expect(validateValue('formDate', { label: '日期', required: true }, '')).toBe('请选择日期');
    expect(validateValue('formDateRange', { label: '请假' }, ['2026-02-01', '2026-01-01'])).toBe('请假的开始日期不能晚于结束日期');
    expect(validateValue('formDateRange', { label: '请假' }, ['2026-01-01', '2026-02-01'])).toBeUndefined();
    expect(validateValue('formDateRange', { label: '请假' }, ['2026-01-01', ''])).toBe('请假不是有效日期');
    expect(validateValue('formDateRange', { label: '请假' }, [undefined, '2026-01-01'])).toBe('请假不是有效日期');
    // a range cleared at both ends is empty, as on the server
    expect(validateValue('formDateRange', { label: '请假' }, [undefined, undefined])).toBeUndefined();
    expect(validateValue('formDateRange', { label: '请假', required: true }, ['', ''])).toBe('请选择请假');
    expect(validateValue('formDate', { label: '日期' }, '2026-02-30')).toBe('日期不是有效日期');
    // a label of spaces names the field by the kind's title
    expect(validateValue('formInput', { label: '  ', required: true }, '', '单行文本')).toBe('请输入单行文本');
    expect(validateValue('formImage', { label: '照片', maxCount: 1 }, ['/files/form/a.png', '/files/form/b.png'])).toBe('照片最多上传1张图片');
  });
});

describe('the text field’s format presets', () => {
  it('are the shared rules’ presets (common/fields.ts), by title and expression', () => {
    const preset = (widgetDeclarations.formInput.viewProps as { properties: { patternPreset: { oneOf: Array<{ const: string; title: string }> } } }).properties.patternPreset;
    const offered = preset.oneOf.filter((o) => o.const && o.const !== CUSTOM_PATTERN);
    expect(offered.map((o) => [o.title, o.const])).toEqual(Object.values(PATTERN_PRESETS).map((p) => [p.title, p.source]));
  });
});

function view(name: string, props: Record<string, unknown> = {}) {
  const w = createWidget(name, { pageId: 'p' });
  return { widgetName: name, viewProps: { ...w.widgetProps.viewProps, ...props }, datasourceProps: w.widgetProps.datasourceProps };
}

describe('on the designer canvas (no running form)', () => {
  for (const name of FIELD_KINDS) {
    it(`${name} shows its label and a disabled control`, () => {
      const w = view(name, { label: `标签-${name}`, required: true, field: 'f' });
      const { container } = render(<WidgetView {...w} />);
      expect(container.querySelector(`[data-widget="${name}"]`)).not.toBeNull();
      expect(screen.getByText(`标签-${name}`)).toBeInTheDocument();
      // the required mark, as in the CRUD dialogs (a switch always has a value: never required)
      expect(container.querySelector('.ant-formily-item-asterisk') !== null).toBe(name !== 'formSwitch');
      const controls = container.querySelectorAll('input, textarea, button');
      expect(controls.length).toBeGreaterThan(0);
      for (const c of controls) expect((c as HTMLInputElement).disabled || c.closest('.ant-upload-disabled, .ant-select-disabled, .ant-picker-disabled') !== null).toBe(true);
    });
  }
  it('redraws a field when the panel changes its label or required mark', () => {
    const w = view('formInput', { label: '旧标签', field: 'f' });
    const { rerender, container } = render(<WidgetView {...w} />);
    expect(screen.getByText('旧标签')).toBeInTheDocument();
    rerender(<WidgetView {...w} viewProps={{ ...w.viewProps, label: '新标签', required: true }} />);
    expect(screen.getByText('新标签')).toBeInTheDocument();
    expect(container.querySelector('.ant-formily-item-asterisk')).not.toBeNull();
  });

  it('the submit button is drawn disabled', () => {
    render(<WidgetView {...view('formSubmit')} />);
    expect(screen.getByRole('button', { name: /提\s?交/ })).toBeDisabled();
  });
});

function runForm(fields: Array<ReturnType<typeof view>>, submit = vi.fn(async () => undefined)) {
  // the page's widgets, as the fill-in page hands them over: the fields' logic runs over all of them
  const widgets = fields.map((f) => ({ widgetName: f.widgetName, widgetProps: { viewProps: f.viewProps } }));
  const utils = render(
    <FormRunProvider mode="fill" submit={submit} uploadImage={async () => ({ url: '/files/form/x.png' })} widgets={widgets}>
      {fields.map((f) => (
        <div key={String(f.viewProps.field)} style={{ width: 300, height: 80 }}>
          <WidgetView {...f} />
        </div>
      ))}
      <WidgetView {...view('formSubmit')} />
    </FormRunProvider>,
  );
  return { ...utils, submit };
}

describe('in a running form (preview, fill-in)', () => {
  for (const name of FIELD_KINDS.filter((k) => k !== 'formSwitch')) {
    it(`${name}: an empty required field is refused with its message, nothing submitted`, async () => {
      const { submit } = runForm([view(name, { label: '字段', field: 'a', required: true, defaultValue: undefined })]);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: /提\s?交/ })));
      const expected = ['formInput', 'formTextarea', 'formNumber'].includes(name) ? '请输入字段' : '请选择字段';
      await waitFor(() => expect(screen.getByText(expected)).toBeInTheDocument());
      expect(submit).not.toHaveBeenCalled();
      expect(screen.getByRole('alert')).toHaveTextContent('请检查表单中标红的项');
    });
  }

  it('several kinds are one form: typed and default values reach the submit by field name', async () => {
    const { submit } = runForm([
      view('formInput', { field: 'mobile', label: '手机号码', required: true, patternPreset: MOBILE }),
      view('formNumber', { field: 'age', label: '年龄', defaultValue: 30 }),
      view('formSelect', { field: 'env', label: '环境', dict: 'ENV_TYPE', defaultValue: 'dev' }),
      view('formSwitch', { field: 'notify', label: '通知', defaultValue: true }),
      view('formCheckbox', { field: 'tags', label: '标签', defaultValue: ['1', '2'] }),
    ]);
    const input = screen.getByPlaceholderText('请输入单行文本');
    fireEvent.change(input, { target: { value: '12345' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /提\s?交/ })));
    await waitFor(() => expect(screen.getByText('手机号码格式不正确')).toBeInTheDocument());
    expect(submit).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '13800000000' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /提\s?交/ })));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect((submit.mock.calls[0] as unknown[])[0]).toEqual({ mobile: '13800000000', age: 30, env: 'dev', notify: true, tags: ['1', '2'] });
  });

  it('a refusal from the server shows its message under the button', async () => {
    const submit = vi.fn(async () => {
      throw new Error('手机号码格式不正确');
    });
    runForm([view('formInput', { field: 'mobile', label: '手机号码', defaultValue: '13800000000' })], submit);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /提\s?交/ })));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('手机号码格式不正确'));
  });
});

describe('field logic and the sub-table in a running form (common/formLogic.ts)', () => {
  // DOM queries: role queries over a whole form are slow in jsdom
  const submitButton = () => document.querySelector('[data-widget="formSubmit"] button')!;
  const addRow = () => screen.getByText(/添加一行/).closest('button')!;
  const click = (el: Element) => act(async () => fireEvent.click(el));
  const YES_NO = [{ label: '有', value: 'yes' }, { label: '无', value: 'no' }];

  it('a choice shows and requires another field; hidden, it is neither required nor submitted', async () => {
    const { submit } = runForm([
      view('formRadio', { field: 'hasCar', label: '是否有车', options: YES_NO, defaultValue: 'no' }),
      view('formInput', { field: 'plate', label: '车牌号', placeholder: '车牌', logic: [{ field: 'hasCar', op: 'eq', value: 'yes', effect: 'show' }, { field: 'hasCar', op: 'eq', value: 'yes', effect: 'require' }] }),
    ]);
    expect(screen.queryByPlaceholderText('车牌')).toBeNull();
    await click(submitButton());
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect((submit.mock.calls[0] as unknown[])[0]).toEqual({ hasCar: 'no' });
    await act(async () => fireEvent.click(screen.getByLabelText('有')));
    expect(await screen.findByPlaceholderText('车牌')).toBeInTheDocument();
    expect(document.querySelector('.ant-formily-item-asterisk')).not.toBeNull();
    await click(submitButton());
    await waitFor(() => expect(screen.getByText('请输入车牌号')).toBeInTheDocument());
    expect(submit).toHaveBeenCalledTimes(1);
    fireEvent.change(screen.getByPlaceholderText('车牌'), { target: { value: '浙A12345' } });
    await click(submitButton());
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
    expect((submit.mock.calls[1] as unknown[])[0]).toEqual({ hasCar: 'yes', plate: '浙A12345' });
  });

  it('a cascade offers the options of the parent value and clears a value no longer among them', async () => {
    const { submit } = runForm([
      view('formRadio', { field: 'province', label: '省份', options: [{ label: '浙江', value: 'zj' }, { label: '江苏', value: 'js' }], defaultValue: 'zj' }),
      view('formRadio', {
        field: 'city',
        label: '城市',
        cascadeFrom: 'province',
        options: [{ label: '杭州', value: 'hz', parent: 'zj' }, { label: '南京', value: 'nj', parent: 'js' }],
        defaultValue: 'hz',
      }),
    ]);
    expect(screen.getByLabelText('杭州')).toBeInTheDocument();
    expect(screen.queryByLabelText('南京')).toBeNull();
    await act(async () => fireEvent.click(screen.getByLabelText('江苏')));
    expect(await screen.findByLabelText('南京')).toBeInTheDocument();
    expect(screen.queryByLabelText('杭州')).toBeNull();
    await click(submitButton());
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect((submit.mock.calls[0] as unknown[])[0]).toEqual({ province: 'js' });
  });

  it('a sub-table: rows added, cells checked with the row named, rows submitted', async () => {
    const { submit } = runForm([view('formSubTable', { field: 'items', label: '明细', required: true, maxRows: 2 })]);
    await click(submitButton());
    await waitFor(() => expect(screen.getByText('请输入明细')).toBeInTheDocument());
    await click(addRow());
    await click(addRow());
    expect(addRow()).toBeDisabled(); // at most 2 rows
    fireEvent.change(screen.getByLabelText('第1行名称'), { target: { value: '苹果' } });
    fireEvent.change(screen.getByLabelText('第1行数量'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('第2行名称'), { target: { value: '梨' } });
    await click(submitButton());
    await waitFor(() => expect(screen.getByText('明细第2行：请输入数量')).toBeInTheDocument());
    fireEvent.change(screen.getByLabelText('第2行数量'), { target: { value: '5' } });
    await click(submitButton());
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect((submit.mock.calls[0] as unknown[])[0]).toEqual({ items: [{ item: '苹果', qty: 3 }, { item: '梨', qty: 5 }] });
  });
});
