// Placeholder (spec): shows only the title 知识库视图.
export default function ChatForm() {
  return <h2 style={{ margin: 0 }}>知识库视图</h2>;
}
