import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/切角边框',
  component: WidgetStory,
  args: widgetArgs('borderBox2'),
  argTypes: widgetArgTypes('borderBox2'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Gold: Story = { args: { width: 480, height: 160, borderColor: '#8A6D1F', accentColor: '#FAD337', cut: 24 } };
