"""The crawlers whose operators document them: token, purpose and robots.txt behaviour as the
operator's own page states them (A8). Where the page says nothing about obeying robots.txt,
``obeys`` stays "unknown"."""

from __future__ import annotations

from robotrules.crawlers._model import Crawler

_GOOGLE_COMMON = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"
_GOOGLE_SPECIAL = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers"
_GOOGLE_USER = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers"
_APPLE = "https://support.apple.com/en-us/119829"
_OPENAI = "https://platform.openai.com/docs/bots"
_ANTHROPIC = ("https://support.anthropic.com/en/articles/"
              "8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler")
_PERPLEXITY = "https://docs.perplexity.ai/guides/bots"
_META = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/"

DOCUMENTED: tuple[Crawler, ...] = (
    # search engines
    Crawler("Googlebot", "Google", "Crawls pages for Google Search", "search",
            "https://developers.google.com/search/docs/crawling-indexing/googlebot", obeys="yes"),
    Crawler("Googlebot-Image", "Google", "Crawls images for Google Images and other products that show images",
            "search", _GOOGLE_COMMON, obeys="yes"),
    Crawler("Googlebot-News", "Google", "Crawls news articles for Google News", "search", _GOOGLE_COMMON, obeys="yes"),
    Crawler("Googlebot-Video", "Google", "Crawls videos for Google Search and other products that show videos",
            "search", _GOOGLE_COMMON, obeys="yes"),
    Crawler("Storebot-Google", "Google", "Crawls product pages for Google's shopping surfaces", "search",
            _GOOGLE_COMMON, obeys="yes"),
    Crawler("Google-InspectionTool", "Google",
            "Fetches pages for Search Console's URL Inspection and the Rich Results Test", "search", _GOOGLE_COMMON,
            obeys="yes"),
    Crawler("Bingbot", "Microsoft", "Crawls pages for Bing search", "search",
            "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0", obeys="yes"),
    Crawler("Applebot", "Apple", "Crawls pages for Siri, Spotlight and Safari search", "search", _APPLE,
            obeys="yes"),
    Crawler("DuckDuckBot", "DuckDuckGo", "Crawls pages for DuckDuckGo search results", "search",
            "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot", obeys="yes"),
    Crawler("YandexBot", "Yandex", "Crawls pages for Yandex search", "search",
            "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html", obeys="yes"),
    Crawler("Baiduspider", "Baidu", "Crawls pages for Baidu search", "search",
            "https://www.baidu.com/search/spider.html", obeys="yes"),
    Crawler("YouBot", "You.com", "Crawls pages for the You.com search engine", "search",
            "https://docs.you.com/youbot"),
    Crawler("Diffbot", "Diffbot", "Crawls pages for the Diffbot Knowledge Graph and web search (not AI training)",
            "search", "https://docs.diffbot.com/docs/does-crawl-respect-robotstxt", obeys="yes"),
    # AI training and product-use controls
    Crawler("Google-Extended", "Google",
            "Not a separate crawler: a token that controls whether Googlebot's crawls may train Gemini "
            "and ground its answers", "ai-training", _GOOGLE_COMMON, obeys="yes"),
    Crawler("Google-CloudVertexBot", "Google",
            "Crawls sites at their owners' request to build Vertex AI Agents", "ai-training", _GOOGLE_SPECIAL),
    Crawler("Applebot-Extended", "Apple",
            "Not a separate crawler: a token that controls whether Applebot's crawls may train Apple's "
            "generative models", "ai-training", _APPLE, obeys="yes"),
    Crawler("GPTBot", "OpenAI", "Crawls content that may be used to train OpenAI's generative AI models",
            "ai-training", _OPENAI, obeys="yes"),
    Crawler("ClaudeBot", "Anthropic", "Collects web content that may be used to train Anthropic's AI models",
            "ai-training", _ANTHROPIC, obeys="yes"),
    Crawler("CCBot", "Common Crawl", "Crawls pages for the Common Crawl open web archive, widely used to train AI models",
            "ai-training", "https://commoncrawl.org/ccbot", obeys="yes"),
    Crawler("Meta-ExternalAgent", "Meta", "Crawls pages to train AI models and improve Meta's products",
            "ai-training", _META, obeys="yes"),
    Crawler("FacebookBot", "Meta", "Crawls public pages to improve language models for Meta's speech recognition",
            "ai-training", "https://developers.facebook.com/docs/sharing/bot/", obeys="yes"),
    Crawler("Amazonbot", "Amazon", "Crawls pages to improve Amazon's products and services, including Alexa answers",
            "ai-training", "https://developer.amazon.com/amazonbot", obeys="yes"),
    # AI search indexes
    Crawler("OAI-SearchBot", "OpenAI", "Crawls pages to show them in ChatGPT search results", "ai-search", _OPENAI,
            obeys="yes"),
    Crawler("Claude-SearchBot", "Anthropic", "Crawls pages to improve the search results Claude gives its users",
            "ai-search", _ANTHROPIC, obeys="yes"),
    Crawler("PerplexityBot", "Perplexity", "Crawls pages to show and link them in Perplexity search results",
            "ai-search", _PERPLEXITY, obeys="yes"),
    # fetches on behalf of a user of an AI assistant
    Crawler("ChatGPT-User", "OpenAI", "Fetches a page when a ChatGPT user's request needs it", "ai-assistant", _OPENAI),
    Crawler("Claude-User", "Anthropic", "Fetches a page when a Claude user's question needs it", "ai-assistant",
            _ANTHROPIC, obeys="yes"),
    Crawler("Perplexity-User", "Perplexity", "Fetches a page when a Perplexity user's question needs it",
            "ai-assistant", _PERPLEXITY, obeys="no"),
    Crawler("Meta-ExternalFetcher", "Meta", "Fetches a page when a user of Meta's AI products asks for it",
            "ai-assistant", _META, obeys="no"),
    Crawler("Google-NotebookLM", "Google", "Fetches the pages a NotebookLM user adds as sources", "ai-assistant",
            _GOOGLE_USER, obeys="no"),
    # special-case crawlers: they obey only the groups that name them (Google's documentation)
    Crawler("AdsBot-Google", "Google", "Checks the ad quality of web pages for Google Ads", "other", _GOOGLE_SPECIAL,
            obeys="yes", ignores_global=True),
    Crawler("AdsBot-Google-Mobile", "Google", "Checks the ad quality of mobile web pages for Google Ads", "other",
            _GOOGLE_SPECIAL, obeys="yes", ignores_global=True),
    Crawler("APIs-Google", "Google", "Delivers push notification messages for Google APIs", "other",
            _GOOGLE_SPECIAL, obeys="yes", ignores_global=True),
    Crawler("Mediapartners-Google", "Google", "Crawls pages to choose the ads Google's ad products show on them",
            "other", _GOOGLE_SPECIAL, obeys="yes"),
    Crawler("GoogleOther", "Google", "Generic crawler of Google's product teams, for research and development",
            "other", _GOOGLE_COMMON, obeys="yes"),
    # archives
    Crawler("archive.org_bot", "Internet Archive", "Crawls pages to preserve them in the Wayback Machine", "archive",
            "https://archive.org/details/archive.org_bot"),
)
"""The operator-documented entries, grouped by kind."""
