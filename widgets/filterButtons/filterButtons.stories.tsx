import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '筛选组件/按钮组筛选',
  component: WidgetStory,
  args: widgetArgs('filterButtons'),
  argTypes: widgetArgTypes('filterButtons'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性（设计器画布上的样子：不接收输入）。 */
export const Default: Story = {};
