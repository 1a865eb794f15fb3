import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/数字翻牌',
  component: WidgetStory,
  args: widgetArgs('kpiNumber'),
  argTypes: widgetArgTypes('kpiNumber'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 金额：前缀、两位小数。 */
export const Money: Story = {
  args: {
    prefix: '¥',
    unit: '万元',
    decimals: 2,
    datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'value', label: '数值', field: 'amount' }], dataConfig: { data: [{ amount: 35620.5 }] } },
  },
};
