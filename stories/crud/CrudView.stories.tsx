import type { Meta, StoryObj } from '@storybook/react-vite';
import { CrudStory, crudPageIds } from './CrudStory';

// 通用 CRUD 渲染器：由 schemas/pages 的声明生成的列表页（内存数据，不访问网络）。
const meta = {
  title: 'CRUD 渲染器/列表页',
  component: CrudStory,
  args: { pageId: 'datasource' },
  argTypes: { pageId: { control: 'select', options: crudPageIds } },
  parameters: { layout: 'fullscreen' },
  globals: { backgrounds: { value: 'light' } },
} satisfies Meta<typeof CrudStory>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Datasource: Story = { name: '数据源', args: { pageId: 'datasource' } };
export const Variable: Story = { name: '变量', args: { pageId: 'variable' } };
export const Image: Story = { name: '图片文件', args: { pageId: 'image' } };
