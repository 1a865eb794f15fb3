import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/单行标题',
  component: WidgetStory,
  args: widgetArgs('singleLineTitle'),
  argTypes: widgetArgTypes('singleLineTitle'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 数据映射：标题文字取自数据第一行的 name 字段。 */
export const MappedData: Story = {
  args: {
    datasourceProps: {
      datasourceType: 'STATIC',
      dataMapping: [{ id: '1', prop: 'text', label: '标题', field: 'name' }],
      dataConfig: { data: [{ name: '城市运行实时监测' }] },
    },
    fontSize: 28,
    textAlign: 'left',
  },
};
