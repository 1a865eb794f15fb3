import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/排行榜',
  component: WidgetStory,
  args: widgetArgs('rankingBoard'),
  argTypes: widgetArgTypes('rankingBoard'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Top3: Story = { args: { topN: 3, height: 160, unit: '件', datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'name', label: '名称', field: 'dept' }, { id: '2', prop: 'value', label: '数值', field: 'n' }], dataConfig: { data: [{ dept: '市场部', n: 42 }, { dept: '研发部', n: 87 }, { dept: '客服部', n: 65 }, { dept: '财务部', n: 12 }] } } } };
