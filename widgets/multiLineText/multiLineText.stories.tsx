import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/多行文本',
  component: WidgetStory,
  args: widgetArgs('multiLineText'),
  argTypes: widgetArgTypes('multiLineText'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 数据映射：文本取自数据第一行的 content 字段。 */
export const MappedData: Story = {
  args: {
    datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'text', label: '文本', field: 'content' }], dataConfig: { data: [{ content: '今日全市空气质量优，PM2.5 平均浓度 18 微克/立方米。\n各监测站点运行正常。' }] } },
    textIndent: 0,
  },
};
