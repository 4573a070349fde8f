"""Code compared by its language (generated over the languages a code block may be tagged
with): a comment translated is not a change, an option added after a URL is; placeholders
translated are not a change, a command changed is."""

from __future__ import annotations

import pytest

from parallelcheck.text.listings import code_form

#: tag, the block with a comment ({c} stands for the comment's words), the same block with an
#: option added after its URL.
LANGUAGES = [
    (
        "python",
        '# {c}\nrequests.get("https://example.com/api#top", timeout=5)  # {c}\n',
        'requests.get("https://example.com/api#top", timeout=5, verify=False)',
    ),
    (
        "shell",
        "# {c}\nkubectl apply -f https://k8s.io/examples/pod.yaml  # {c}\n",
        "kubectl apply -f https://k8s.io/examples/pod.yaml --namespace=default",
    ),
    (
        "bash",
        "# {c}\ncurl -fsSL https://example.com/install.sh | sh  # {c}\n",
        "curl -fsSL https://example.com/install.sh | sh -s -- --yes",
    ),
    (
        "console",
        '// {c}\n$ curl https://example.com/api  # {c}\n{{"ok": true}}\n',
        '$ curl https://example.com/api --fail\n{"ok": true}',
    ),
    (
        "js",
        '// {c}\nfetch("https://example.com/api", {{ mode: "cors" }}); /* {c} */\n',
        'fetch("https://example.com/api", { mode: "cors", cache: "no-store" });',
    ),
    (
        "ts",
        '/* {c}\n   {c} */\nconst r = await fetch("https://example.com/api"); // {c}\n',
        'const r = await fetch("https://example.com/api?debug=1");',
    ),
    (
        "jsx",
        '// {c}\nconst a = <a href="https://example.com/docs">Docs</a>; // {c}\n',
        'const a = <a href="https://example.com/docs" target="_blank">Docs</a>;',
    ),
    (
        "go",
        '// {c}\nresp, err := http.Get("https://example.com/api") // {c}\n',
        'resp, err := http.Get("https://example.com/api?v=2")',
    ),
    (
        "rust",
        '// {c}\nlet r = reqwest::get("https://example.com/api").await?; /* {c} */\n',
        'let r = reqwest::get("https://example.com/api").await?.json().await?;',
    ),
    (
        "java",
        '// {c}\nURI u = URI.create("https://example.com/api"); // {c}\n',
        'URI u = URI.create("https://example.com/api").normalize();',
    ),
    (
        "c",
        '/* {c} */\ncurl_easy_setopt(h, CURLOPT_URL, "https://example.com/api"); // {c}\n',
        'curl_easy_setopt(h, CURLOPT_URL, "https://example.com/api?x=1");',
    ),
    (
        "cpp",
        '// {c}\nauto r = cpr::Get(cpr::Url{{"https://example.com/api"}}); // {c}\n',
        'auto r = cpr::Get(cpr::Url{"https://example.com/api"}, cpr::Timeout{1000});',
    ),
    (
        "csharp",
        '// {c}\nvar r = await client.GetAsync("https://example.com/api"); // {c}\n',
        'var r = await client.GetAsync("https://example.com/api", token);',
    ),
    (
        "sql",
        "-- {c}\nSELECT * FROM links WHERE url = 'https://example.com/api'; /* {c} */\n",
        "SELECT * FROM links WHERE url = 'https://example.com/api' LIMIT 10;",
    ),
    (
        "yaml",
        '# {c}\nargs: ["--url", "https://example.com/api"]  # {c}\n',
        'args: ["--url", "https://example.com/api", "--port=80"]',
    ),
    (
        "toml",
        '# {c}\nurl = "https://example.com/api"  # {c}\n',
        'url = "https://example.com/api"\nretries = 3',
    ),
    (
        "json",
        '{{\n  // {c}\n  "url": "https://example.com/api"\n}}\n',
        '{\n  "url": "https://example.com/api",\n  "retries": 3\n}',
    ),
    (
        "dockerfile",
        "# {c}\nRUN curl -fsSL https://example.com/install.sh | sh\n",
        "RUN curl -fsSL https://example.com/install.sh | sh -s -- --yes",
    ),
    (
        "ini",
        "; {c}\nurl = https://example.com/api\n",
        "url = https://example.com/api --verbose",
    ),
    (
        "css",
        '/* {c} */\n@import url("https://example.com/a.css");\n',
        '@import url("https://example.com/a.css") screen;',
    ),
    (
        "html",
        '<!-- {c} -->\n<a href="https://example.com/docs">Docs</a>\n',
        '<a href="https://example.com/docs" target="_blank">Docs</a>',
    ),
    (
        "astro",
        '---\n// {c}\nconst url = "https://example.com/docs";\n---\n'
        "<!-- {c} -->\n<a href={{url}}>Docs</a>\n",
        '---\nconst url = "https://example.com/docs";\n---\n<a href={url} rel="external">Docs</a>',
    ),
    (
        "md",
        "<!-- {c} -->\n[Docs](https://example.com/docs)\n",
        "[Docs](https://example.com/docs?lang=en)",
    ),
    (
        "mermaid",
        "graph TD\n  %% {c}\n  A[Client] -->|{c}| B[Server]\n  click B https://example.com/api\n",
        "graph TD\n  A[Client] -->|calls| B[Server]\n  click B https://example.com/api _blank",
    ),
    (
        "",
        "# {c}\ncurl https://example.com/api --retry 3\n",
        "curl https://example.com/api --retry 3 --fail",
    ),
]

ENGLISH = "install the package"
TRANSLATED = "instala el paquete — パッケージをインストール"


def _tokens(code: str, tag: str) -> tuple[str, ...]:
    return code_form(code, tag).tokens


@pytest.mark.parametrize(("tag", "commented", "changed"), LANGUAGES, ids=lambda v: v[:12])
def test_a_translated_comment_is_not_a_change(tag, commented, changed):
    english = commented.format(c=ENGLISH)
    translated = commented.format(c=TRANSLATED)
    assert _tokens(english, tag) == _tokens(translated, tag)
    assert (
        code_form(english, tag).comment_positions()
        == code_form(translated, tag).comment_positions()
    )
    assert code_form(english, tag).comment_positions(), "the comment is seen as one"


@pytest.mark.parametrize(("tag", "commented", "changed"), LANGUAGES, ids=lambda v: v[:12])
def test_an_option_added_after_a_url_is_a_change(tag, commented, changed):
    english = commented.format(c=ENGLISH)
    assert _tokens(english, tag) != _tokens(changed, tag)
    # …and the URL itself is compared: no comment marker cuts it.
    assert _tokens(english, tag) != _tokens(english.replace("https://", "http://"), tag)


@pytest.mark.parametrize(
    ("tag", "original", "translated", "changed"),
    [
        (
            "shell",
            "git checkout -b <branch-name>",
            "git checkout -b <nombre-de-rama>",
            "git checkout -B <branch-name>",
        ),
        ("shell", "cp <file> /tmp/", "cp <fichier> /tmp/", "mv <fichier> /tmp/"),
        (
            "console",
            "$ git push origin {{branch_name}}",
            "$ git push origin {{브랜치_이름}}",
            "$ git push --force origin {{브랜치_이름}}",
        ),
        (
            "bash",
            'echo "$GREETING" > ${OUT_FILE}',
            'echo "$SALUDO" > ${ARCHIVO}',
            'echo "$SALUDO" >> ${ARCHIVO}',
        ),
        (
            "",
            "kubectl logs <pod-name> -n <namespace>",
            "kubectl logs <파드-이름> -n <네임스페이스>",
            "kubectl logs <파드-이름> -n kube-system",
        ),
        (
            "yaml",
            "name: {{ release_name }}",
            "name: {{ nombre_de_versión }}",
            "name: {{ .Values.name }}",
        ),
    ],
)
def test_placeholders_translated_vs_command_changed(tag, original, translated, changed):
    assert _tokens(original, tag) == _tokens(translated, tag)
    assert _tokens(translated, tag) != _tokens(changed, tag)


def test_white_space_does_not_matter_but_words_do():
    assert _tokens("const {width, height} = size;", "js") == _tokens(
        "const { width,  height } =\n  size;", "js"
    )
    assert _tokens("const {width, height} = size;", "js") != _tokens(
        "const {widthheight} = size;", "js"
    )


@pytest.mark.parametrize(
    ("tag", "ours", "theirs"),
    [
        ("console", '$ pip install "python-jose[cryptography]"', '$ pip install "python-jose"'),
        ("shell", 'git commit -m "Add docs"', 'git commit -m "Añade la documentación"'),
        ("python", 'app.get("/items/{item_id}")', 'app.get("/elementos/{item_id}")'),
        ("python", '{"item_id": 1}', '{"id_del_item": 1}'),
        ("yaml", "image: nginx:1.14.2", "image: nginx:1.16.1"),
        ("html", '<a href="/guides/">Guides</a>', '<a href="/guias/">Guías</a>'),
    ],
)
def test_strings_that_are_values_or_arguments_are_compared(tag, ours, theirs):
    assert _tokens(ours, tag) != _tokens(theirs, tag)


@pytest.mark.parametrize(
    ("tag", "ours", "theirs"),
    [
        ("python", 'print("Hello world")', 'print("Hola mundo")'),
        (
            "python",
            'raise HTTPException(404, detail="Item not found")',
            'raise HTTPException(404, detail="アイテムが見つかりません")',
        ),
        ("js", "alert(`Welcome back, ${user}!`);", "alert(`Bienvenue, ${user} !`);"),
        (
            "astro",
            "<p>Written by: {frontmatter.author}</p>",
            "<p>Geschrieben von: {frontmatter.author}</p>",
        ),
        (
            "jsx",
            '<img src="/stars.png" alt="A starry night sky." />',
            '<img src="/stars.png" alt="繁星点点的夜空" />',
        ),
        (
            "md",
            "---\ntitle: My Second Blog Post\n---\n# Hello\n\nSee [the guide](/guide/).",
            "---\ntitle: Моя вторая запись\n---\n# Привет\n\nСм. [руководство](/guide/).",
        ),
        (
            "mermaid",
            "graph LR\n  stone -->|requires| harry-1\n  A -- calls --> B",
            "graph LR\n  stone -->|требует| harry-1\n  A -- вызывает --> B",
        ),
        (
            "mermaid",
            'flowchart TB\n  subgraph V1["Pydantic v1 Model"]\n  end',
            'flowchart TB\n  subgraph V1["Pydantic-v1-Modell"]\n  end',
        ),
        ("yaml", "description: The app that says hello", "description: Die App, die Hallo sagt"),
    ],
)
def test_prose_may_be_translated(tag, ours, theirs):
    assert _tokens(ours, tag) == _tokens(theirs, tag)


def test_markup_code_around_prose_is_compared():
    ours = "<p>Written by: {frontmatter.author}</p>"
    assert _tokens(ours, "astro") != _tokens("<p>Geschrieben von: {frontmatter.autor}</p>", "astro")
    jsx = "export default function Hi() {\n  return <p>Hi there</p>;\n}\nconst x = a < b;"
    assert _tokens(jsx, "jsx") != _tokens(jsx.replace("a < b", "a > b"), "jsx")


def test_an_unknown_language_is_read_conservatively():
    # Neither `#` nor `//` after code starts a comment: both may be a command's arguments.
    assert _tokens("ls # all", "") != _tokens("ls # todo", "")
    assert _tokens("see http://x // y", "") != _tokens("see http://x // z", "")
    assert _tokens("  # all files\nls", "") == _tokens("  # todos los archivos\nls", "")
    # …but a console's prompts say what it is.
    assert _tokens("$ ls  # all", "") == _tokens("$ ls  # todos", "")


def test_a_console_output_is_compared_and_its_comment_lines_are_not():
    ours = "// Create a directory\n$ mkdir code\n$ ls\ncode"
    assert _tokens(ours, "console") == _tokens(
        ours.replace("Create a directory", "Crea uno"), "console"
    )
    assert _tokens(ours, "console") != _tokens(ours.replace("\ncode", "\ncodigo"), "console")


def test_a_root_prompt_is_a_command_when_the_block_has_no_other_prompt():
    assert _tokens("# apt-get install curl", "console") != _tokens(
        "# apt-get install wget", "console"
    )
    assert _tokens("# the tools\n$ apt-get install curl", "console") == _tokens(
        "# las herramientas\n$ apt-get install curl", "console"
    )


def test_comments_are_placed_so_that_a_rewrapped_one_is_the_same_and_an_added_one_is_not():
    one = code_form("# install it\npip install x\n", "shell")
    rewrapped = code_form("# instálalo\n# con pip\npip install x\n", "shell")
    added = code_form("# instálalo\npip install x\n# y luego\n", "shell")
    moved_up = code_form("x = 1  # one\n", "python")
    above = code_form("# one\nx = 1\n", "python")
    assert one.comment_positions() == rewrapped.comment_positions() == (0,)
    assert added.comment_positions() == (0, 3)
    assert moved_up.comment_positions() == above.comment_positions()
    assert [line for _, line in added.comments] == [0, 2]


def test_token_lines_locate_the_code():
    form = code_form("# c\nkubectl apply \\\n  -f pod.yaml\n", "shell")
    assert form.tokens[0] == "kubectl"
    assert form.token_lines[0] == 1
    assert form.token_lines[form.tokens.index("pod")] == 2


def test_markup_text_with_an_equals_sign_is_prose_and_env_comments_trail():
    assert _tokens("<h1>Counter = {counter}</h1>", "astro") == _tokens(
        "<h1>计数器 = {counter}</h1>", "astro"
    )
    assert _tokens('URL="http://127.0.0.1:1337" # or use your IP', "ini") == _tokens(
        'URL="http://127.0.0.1:1337" # ou votre adresse IP', "ini"
    )
