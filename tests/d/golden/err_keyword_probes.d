int
{
}

self { }

string { }
