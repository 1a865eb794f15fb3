import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/分页表格',
  component: WidgetStory,
  args: widgetArgs('pagedTable'),
  argTypes: widgetArgTypes('pagedTable'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据（12 家门店，每页 5 行）。 */
export const Default: Story = {};

/** 每页 8 行、较小字号，不显示序号。 */
export const Compact: Story = { args: { width: 440, height: 330, pageSize: 8, rowHeight: 30, fontSize: 12, showIndex: false } };
