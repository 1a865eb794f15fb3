import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/时钟日期',
  component: WidgetStory,
  args: widgetArgs('clockDate'),
  argTypes: widgetArgTypes('clockDate'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const ChineseDate: Story = { args: { format: 'YYYY年MM月DD日', showWeek: true, fontSize: 18 } };
