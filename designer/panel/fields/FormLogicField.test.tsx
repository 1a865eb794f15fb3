// 字段联动 in the generated panel: a choice field's panel lists the form's other fields, a rule is built by
// picking (field, op, one of its options, effect) and reaches the widget's view props; the cascade picker too.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createWidget, getWidgetKind } from '../../../widgets';
import { SchemaPanel } from '../SchemaPanel';
import { pageFieldsOf } from '../formFields';

const kind = getWidgetKind('formInput')!;
const select = getWidgetKind('formSelect')!;
const radio = createWidget('formRadio', { pageId: 'p' });
radio.widgetProps.viewProps = { ...radio.widgetProps.viewProps, field: 'hasCar', label: '是否有车', options: [{ label: '有', value: 'yes' }, { label: '无', value: 'no' }] };
const me = createWidget('formInput', { pageId: 'p' });
me.widgetProps.viewProps = { ...me.widgetProps.viewProps, field: 'plate', label: '车牌号' };
const services = { formFields: () => pageFieldsOf([radio, me]) };

/** Opens an antd select by its label and picks the option with this text (DOM queries: role queries are slow on a whole panel). */
async function pick(label: string, option: string) {
  const box = document.querySelector(`input[aria-label="${label}"]`) ?? screen.getAllByLabelText(label)[0];
  await act(async () => fireEvent.mouseDown(box));
  const found = await waitFor(() => {
    const all = document.querySelectorAll(`.ant-select-item-option[title="${option}"]`);
    expect(all.length).toBeGreaterThan(0);
    return all[all.length - 1];
  });
  await act(async () => fireEvent.click(found));
}

describe('字段联动 (ui:field formLogic)', () => {
  it('builds a rule from the other fields and their options', async () => {
    const onChange = vi.fn();
    render(<SchemaPanel schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={me.widgetProps.viewProps} onChange={onChange} services={services} />);
    expect(screen.getByText('没有联动规则：本字段总是显示')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('添加联动规则')));
    await pick('规则 1 的条件字段', '是否有车（hasCar）');
    // the field itself is not among the choices
    expect(document.querySelector('.ant-select-item-option[title="车牌号（plate）"]')).toBeNull();
    await pick('规则 1 的值', '有（yes）');
    await pick('规则 1 的效果', '本字段必填');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ logic: [{ field: 'hasCar', op: 'eq', value: 'yes', effect: 'require' }] }));
    await pick('规则 1 的条件', '为空');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ logic: [{ field: 'hasCar', op: 'empty', effect: 'require' }] }));
    await act(async () => fireEvent.click(document.querySelector('button[aria-label="删除规则 1"]')!));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ logic: [] }));
  }, 60_000);

  it('warns of a rule on a field no longer on the form', () => {
    render(<SchemaPanel schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={{ ...me.widgetProps.viewProps, logic: [{ field: 'gone', op: 'notEmpty', effect: 'show' }] }} services={services} />);
    expect(within(screen.getByRole('alert')).getByText(/gone 已不在表单上/)).toBeInTheDocument();
  });

  it('a choice field picks the field its options follow (级联)', async () => {
    const onChange = vi.fn();
    const w = createWidget('formSelect', { pageId: 'p' });
    render(<SchemaPanel schema={select.viewSchema} uiSchema={select.uiSchema.viewProps} value={{ ...w.widgetProps.viewProps, field: 'city' }} onChange={onChange} services={services} />);
    await pick('选项跟随字段（级联）', '是否有车（hasCar）');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ cascadeFrom: 'hasCar' }));
  });
});
