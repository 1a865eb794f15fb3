import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/标题边框',
  component: WidgetStory,
  args: widgetArgs('borderBox3'),
  argTypes: widgetArgTypes('borderBox3'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const LongTitle: Story = { args: { width: 520, title: '各区县人口与经济概况', titleWidth: 240 } };
